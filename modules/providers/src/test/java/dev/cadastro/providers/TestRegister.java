package dev.cadastro.providers;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.loader.DumpReader;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.register.BuildOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.RegisterIndexBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One real register per test JVM: a synthetic dump in the Receita Federal format, generated, loaded
 * and indexed by the real loader into a real Lucene index.
 */
final class TestRegister {
    static final int ESTABLISHMENTS = 400;
    private static TestRegister instance;

    final LuceneRegister register;
    /** CNPJs the register holds, in a stable order. */
    final List<Cnpj> cnpjs;

    private TestRegister() throws IOException {
        Path dir = Files.createTempDirectory(Path.of("target"), "providers-register-");
        List<Cnpj> expected = Collections.synchronizedList(new ArrayList<>());
        DumpGenerator.generate(
                dir.resolve("dump"),
                GeneratorOptions.builder(ESTABLISHMENTS).seed(15).threads(1).build(),
                (Establishment e) -> expected.add(e.cnpj()));
        // The reader into the index builder, as the server's DumpLoader joins them (this module sees neither).
        DumpReader reader =
                DumpReader.open(LoadOptions.builder(dir.resolve("dump")).build());
        BuildOptions build = BuildOptions.builder()
                .indexingThreads(1)
                .expectedCount(ESTABLISHMENTS)
                .build();
        try (RegisterIndexBuilder builder =
                RegisterIndexBuilder.create(dir.resolve("index"), reader.lookups(), build)) {
            reader.readInto(builder::add, builder::addPartners);
            builder.publish("synthetic dump of " + ESTABLISHMENTS, true);
        }
        register = LuceneRegister.open(dir.resolve("index"));
        List<Cnpj> sorted = new ArrayList<>(expected);
        Collections.sort(sorted);
        cnpjs = List.copyOf(sorted);
        Runtime.getRuntime().addShutdownHook(new Thread(register::close));
    }

    static synchronized TestRegister get() {
        if (instance == null) {
            try {
                instance = new TestRegister();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return instance;
    }

    /** A valid CNPJ the register does not hold, with the given property. */
    Cnpj outside(java.util.function.Predicate<Cnpj> wanted) {
        for (long i = 1; i < 1_000_000; i++) {
            Cnpj c = Cnpj.withCheckDigits(String.format("%08d0001", 90_000_000 + i));
            if (register.lookup(c).isEmpty() && wanted.test(c)) {
                return c;
            }
        }
        throw new AssertionError("no such CNPJ outside the register");
    }
}
