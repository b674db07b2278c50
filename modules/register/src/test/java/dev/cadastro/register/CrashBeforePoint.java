package dev.cadastro.register;

import dev.cadastro.core.register.Establishment;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Child JVM of {@link PublicationFailureTest}: builds a generation under the root it is given and halts
 * the JVM (no shutdown hooks, no finally blocks, as a power cut or a kill would) right after the
 * generation was moved into place and before {@code CURRENT} is switched. Uses no test library, so it
 * runs on the module path alone.
 */
final class CrashBeforePoint {
    /** The exit status of the child JVM halted at {@link RegisterIndexBuilder.PublishStep#BEFORE_POINT}. */
    static final int HALTED = 77;

    private static final BuildOptions OPTIONS =
            BuildOptions.builder().ramBufferMb(32).indexingThreads(1).build();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-08-09T03:00:00Z"), ZoneOffset.UTC);

    private CrashBeforePoint() {}

    static List<Establishment> rows(long seed, int n) {
        SyntheticRegister g = new SyntheticRegister(seed);
        List<Establishment> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(g.next());
        }
        return out;
    }

    static PublishedIndex build(Path root, List<Establishment> rows, String label) {
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), OPTIONS, CLOCK)) {
            rows.forEach(b::add);
            return b.publish(label);
        }
    }

    /** What the child adds: seed 2, so the parent knows which rows belong to the unpointed generation. */
    static List<Establishment> rows() {
        return rows(2, 400);
    }

    public static void main(String[] args) {
        Path root = Path.of(args[0]);
        RegisterIndexBuilder.publishHook = (step, dir) -> {
            if (step == RegisterIndexBuilder.PublishStep.BEFORE_POINT) {
                System.out.println("halting after moving " + dir + " into place");
                System.out.flush();
                Runtime.getRuntime().halt(HALTED);
            }
        };
        build(root, rows(), "halted before CURRENT");
        System.out.println("published without halting: the hook was not reached");
        System.exit(1);
    }
}
