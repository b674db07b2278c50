package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Scope;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** The scopes' wire names and {@code all}, for the help and the shell completion. */
final class ScopeNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
        List<String> names = new ArrayList<>();
        for (Scope s : Scope.values()) {
            names.add(s.wire());
        }
        names.add("all");
        return names.iterator();
    }
}
