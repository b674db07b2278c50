package dev.cadastro.core.provider;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A written list of the paths of a provider answer that may pass into Cadastro; everything else is
 * dropped before the answer is read. A path names a key under its parents, joined by dots, with
 * {@code []} after a key whose value is a list to mean every element of it: {@code cnpj}, {@code
 * porte.codigo}, {@code socios[].cpf}, {@code socios[].representante_legal.nome}.
 *
 * <p>The paths listed are leaves: a scalar (string, number, boolean) or a list of scalars there is
 * kept, an object there is dropped, so a provider that nests new fields under an allowed name still
 * gets nothing through. The parents of a listed path are kept as objects (or lists of objects) and
 * filtered key by key. Keys that are not strings are dropped.
 *
 * <p>Immutable and thread-safe.
 */
public final class Allowlist {
    private final Set<String> paths;
    /** Every proper parent of a listed path, with and without a trailing {@code []}. */
    private final Set<String> parents;

    private Allowlist(Set<String> paths, Set<String> parents) {
        this.paths = paths;
        this.parents = parents;
    }

    /**
     * The allowlist of these paths.
     *
     * @throws IllegalArgumentException for a blank path, an empty segment or a misplaced {@code []}
     */
    public static Allowlist of(String... paths) {
        Set<String> listed = new LinkedHashSet<>();
        Set<String> parents = new LinkedHashSet<>();
        for (String path : paths) {
            Objects.requireNonNull(path, "path");
            String[] segments = path.split("\\.", -1);
            StringBuilder prefix = new StringBuilder();
            for (int i = 0; i < segments.length; i++) {
                String segment = segments[i];
                String name = segment.endsWith("[]") ? segment.substring(0, segment.length() - 2) : segment;
                if (name.isBlank() || name.contains("[") || name.contains("]")) {
                    throw new IllegalArgumentException("allowlist path \"" + path + "\" has an invalid segment \""
                            + segment + "\": a key name, optionally followed by []");
                }
                if (i > 0) {
                    prefix.append('.');
                }
                prefix.append(name);
                if (i < segments.length - 1) {
                    parents.add(prefix.toString());
                    if (!name.equals(segment)) {
                        prefix.append("[]");
                        parents.add(prefix.toString());
                    }
                } else if (!name.equals(segment)) {
                    throw new IllegalArgumentException(
                            "allowlist path \"" + path + "\" ends in []: list the fields of its elements instead");
                }
            }
            listed.add(prefix.toString());
        }
        for (String p : listed) {
            if (parents.contains(p)) {
                throw new IllegalArgumentException(
                        "allowlist path \"" + p + "\" is both a leaf and the parent of another path");
            }
        }
        return new Allowlist(Collections.unmodifiableSet(listed), Collections.unmodifiableSet(parents));
    }

    /**
     * True when a value at this path may pass: a listed leaf or the parent of one. Elements of a list
     * are written with {@code []} ({@code socios[]}, {@code socios[].cpf}).
     */
    public boolean allows(String path) {
        return paths.contains(path) || parents.contains(path);
    }

    /** The listed leaf paths, in the order given. */
    public Set<String> paths() {
        return paths;
    }

    /** A deep copy of the tree with only the allowed paths (see the class comment). */
    public Map<String, Object> filter(Map<String, ?> tree) {
        return filterCounting(tree).tree();
    }

    /**
     * Like {@link #filter}, and says what was dropped: the paths only, never a value, so the result can
     * be logged.
     */
    public Filtered filterCounting(Map<String, ?> tree) {
        Objects.requireNonNull(tree, "tree");
        Set<String> dropped = new TreeSet<>();
        int[] count = {0};
        Map<String, Object> copy = object(tree, "", dropped, count);
        return new Filtered(copy, count[0], Collections.unmodifiableSet(dropped));
    }

    private Map<String, Object> object(Map<?, ?> map, String at, Set<String> dropped, int[] count) {
        Map<String, Object> copy = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!(e.getKey() instanceof String key)) {
                count[0]++;
                dropped.add(at.isEmpty() ? "<non-string key>" : at + ".<non-string key>");
                continue;
            }
            String path = at.isEmpty() ? key : at + "." + key;
            Object kept = value(e.getValue(), path, dropped, count);
            if (kept == DROP) {
                count[0]++;
                dropped.add(path);
            } else {
                copy.put(key, kept);
            }
        }
        return copy;
    }

    private static final Object DROP = new Object();

    private Object value(Object value, String path, Set<String> dropped, int[] count) {
        if (paths.contains(path)) {
            if (value instanceof Map<?, ?>) {
                return DROP;
            }
            if (value instanceof List<?> list) {
                for (Object element : list) {
                    if (element instanceof Map<?, ?> || element instanceof List<?>) {
                        return DROP;
                    }
                }
                return new ArrayList<>(list);
            }
            return value;
        }
        if (!parents.contains(path)) {
            return DROP;
        }
        if (value instanceof Map<?, ?> map) {
            return object(map, path, dropped, count);
        }
        if (value instanceof List<?> list) {
            String element = path + "[]";
            if (!parents.contains(element)) {
                return DROP;
            }
            List<Object> copy = new ArrayList<>(list.size());
            for (Object item : list) {
                if (item instanceof Map<?, ?> map) {
                    copy.add(object(map, element, dropped, count));
                } else if (item instanceof List<?>) {
                    count[0]++;
                    dropped.add(element);
                } else {
                    copy.add(item);
                }
            }
            return copy;
        }
        // A scalar where an object is expected passes, so that reading reports the wrong type.
        return value;
    }

    /**
     * A filtered tree and what was dropped from it.
     *
     * @param tree the deep copy with only the allowed paths
     * @param dropped how many fields (with whatever they held) were dropped
     * @param droppedPaths their paths, never their values
     */
    public record Filtered(Map<String, Object> tree, int dropped, Set<String> droppedPaths) {}

    @Override
    public String toString() {
        return "Allowlist" + paths;
    }
}
