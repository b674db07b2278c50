package dev.cadastro.core.calls;

import java.util.Objects;

/**
 * One client of the call-records service (a contact center's CRM sync): its calls, its tokens and
 * its push destination belong to it and to no other.
 *
 * @param name lower-case letters, digits, {@code -} and {@code _}, 1 to 63 characters, starting with a
 *     letter or digit; the operator's handle in {@code ./cadastro admin calls-token ...}
 */
public record Integration(long id, String name) {
    public Integration {
        Objects.requireNonNull(name, "name");
        if (!validName(name)) {
            throw new IllegalArgumentException("integration name '" + name
                    + "' must be 1 to 63 lower-case letters, digits, - or _, starting with a letter or digit");
        }
    }

    /** Whether {@code name} is an acceptable integration name. */
    public static boolean validName(String name) {
        return name != null && name.matches("[a-z0-9][a-z0-9_-]{0,62}");
    }
}
