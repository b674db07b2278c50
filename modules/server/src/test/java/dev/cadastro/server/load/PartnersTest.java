package dev.cadastro.server.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.CnpjRoot;
import dev.cadastro.core.register.Partner;
import dev.cadastro.core.register.Partner.Kind;
import dev.cadastro.loader.LoadSummary;
import dev.cadastro.loader.Note;
import dev.cadastro.loader.RejectReason;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratedDump;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.loader.internal.Family;
import dev.cadastro.loader.testing.DumpFixture;
import dev.cadastro.register.BuildOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.SearchOptions;
import dev.cadastro.server.DumpLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partner structure of the Socios files, loaded with each generation and read back through {@link
 * LuceneRegister#partners}: fields and descriptions, the reject path, a generation without partners (it asks
 * for a load), and
 * partners that change with the records they were published with.
 */
class PartnersTest {
    @TempDir
    Path tmp;

    private static final String ROOT = "11222333";
    private static final String CNPJ = Cnpj.withCheckDigits(ROOT + "0001").value();
    private static final String ORPHAN = "99888777";
    private static final String PJ_PARTNER =
            Cnpj.withCheckDigits("445556660001").value();

    private static BuildOptions build() {
        return BuildOptions.builder().ramBufferMb(16).indexingThreads(1).build();
    }

    private static String row(String... fields) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            sb.append(i == 0 ? "" : ";").append('"').append(fields[i]).append('"');
        }
        return sb.append('\n').toString();
    }

    private static String empresa(String root, String razao) {
        return row(root, razao, "2062", "49", "1000,00", "05", "");
    }

    private Path dump(String name, String razao, String socios) throws Exception {
        return DumpFixture.dump()
                .rows(Family.EMPRESAS, 0, empresa(ROOT, razao))
                .rows(Family.ESTABELECIMENTOS, 0, DumpFixture.estab(CNPJ))
                .rows(Family.SOCIOS, 3, socios)
                .writeTo(tmp.resolve(name));
    }

    private DumpLoader.Result load(Path dump, Path index) {
        return DumpLoader.load(
                DumpFixture.options(dump, tmp.resolve("work-" + dump.getFileName()))
                        .build(),
                index,
                build());
    }

    private static final String SOCIOS = row(
                    ROOT, "2", "MARIA DA SILVA", "***123456**", "49", "20150302", "", "***000000**", "", "00", "5")
            + row(
                    ROOT,
                    "1",
                    "HOLDING EXEMPLO PARTICIPACOES LTDA",
                    PJ_PARTNER,
                    "22",
                    "20190710",
                    "",
                    "***654321**",
                    "JOSE PEREIRA",
                    "05",
                    "0")
            + row(
                    ROOT,
                    "3",
                    "JOHN SMITH",
                    "***999999**",
                    "38",
                    "20200115",
                    "249",
                    "***111222**",
                    "ANA COSTA",
                    "17",
                    "6")
            + row(
                    ROOT,
                    "2",
                    "PEDRO DA SILVA",
                    "***777888**",
                    "30",
                    "00000000",
                    "",
                    "***123456**",
                    "MARIA DA SILVA",
                    "14",
                    "1")
            + row(ORPHAN, "2", "SEM EMPRESA", "***000111**", "49", "20010101", "", "***000000**", "", "00", "4");

    @Test
    void readsEveryPartnerOfTheRootBackWithItsFieldsAndDescriptions() throws Exception {
        DumpLoader.Result result = load(dump("d", "EMPRESA A LTDA", SOCIOS), tmp.resolve("index"));
        assertEquals(5, result.summary().families().get("Socios").loaded());

        try (LuceneRegister register = LuceneRegister.open(tmp.resolve("index"))) {
            List<Partner> partners = register.partners(new CnpjRoot(ROOT));
            assertEquals(
                    List.of(
                            new Partner(
                                    Kind.PERSON,
                                    "MARIA DA SILVA",
                                    "***123456**",
                                    "49",
                                    "Sócio-Administrador",
                                    LocalDate.of(2015, 3, 2),
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    5),
                            new Partner(
                                    Kind.COMPANY,
                                    "HOLDING EXEMPLO PARTICIPACOES LTDA",
                                    PJ_PARTNER,
                                    "22",
                                    "Sócio",
                                    LocalDate.of(2019, 7, 10),
                                    null,
                                    "***654321**",
                                    "JOSE PEREIRA",
                                    "05",
                                    "Administrador",
                                    0),
                            new Partner(
                                    Kind.FOREIGNER,
                                    "JOHN SMITH",
                                    null,
                                    "38",
                                    "Sócio Pessoa Física Residente no Exterior",
                                    LocalDate.of(2020, 1, 15),
                                    "249",
                                    "***111222**",
                                    "ANA COSTA",
                                    "17",
                                    "Procurador",
                                    6),
                            new Partner(
                                    Kind.PERSON,
                                    "PEDRO DA SILVA",
                                    "***777888**",
                                    "30",
                                    "Sócio Menor (Assistido/Representado)",
                                    null,
                                    null,
                                    "***123456**",
                                    "MARIA DA SILVA",
                                    "14",
                                    "Mãe",
                                    1)),
                    partners);
            assertEquals(
                    List.of("SEM EMPRESA"),
                    register.partners(new CnpjRoot(ORPHAN)).stream()
                            .map(Partner::name)
                            .toList(),
                    "a partner row whose root has no company is kept");
            assertEquals(List.of(), register.partners(new CnpjRoot("12312312")));
            assertTrue(register.lookup(Cnpj.of(CNPJ)).isPresent());
        }
    }

    @Test
    void rejectsMalformedSociosRowsAndKeepsTheRest() throws Exception {
        String socios = row(ROOT, "2", "BOA", "***123456**", "49", "20150302", "", "***000000**", "", "00", "5")
                + row(ROOT, "7", "TIPO ERRADO", "***123456**", "49", "20150302", "", "***000000**", "", "00", "5")
                + row("1122X", "2", "RAIZ CURTA", "***123456**", "49", "20150302", "", "***000000**", "", "00", "5")
                + row(ROOT, "2", "FAIXA ERRADA", "***123456**", "49", "20150302", "", "***000000**", "", "00", "X")
                + row(ROOT, "2", "COLUNA A MENOS", "***123456**", "49", "20150302", "", "***000000**", "00", "5")
                + row(ROOT, "2", "DATA RUIM", "***654321**", "49", "20151345", "", "***000000**", "", "00", "3");
        DumpLoader.Result result = load(dump("d", "EMPRESA A LTDA", socios), tmp.resolve("index"));

        LoadSummary.FamilyCount c = result.summary().families().get("Socios");
        assertEquals(6, c.read());
        assertEquals(2, c.loaded());
        assertEquals(2L, c.rejected().get(RejectReason.INVALID_CODE));
        assertEquals(1L, c.rejected().get(RejectReason.INVALID_CNPJ));
        assertEquals(1L, c.rejected().get(RejectReason.COLUMN_COUNT));
        assertEquals(1L, result.summary().notes().get(Note.DATE_INVALID), "the bad entry date is noted");
        List<String> lines = Files.readAllLines(tmp.resolve("work-d").resolve("rejects.tsv"), StandardCharsets.UTF_8);
        List<String> socioRejects = lines.stream()
                .filter(l -> l.startsWith(Family.SOCIOS.innerName(3, "D60808")))
                .toList();
        assertEquals(4, socioRejects.size(), String.join("\n", lines));
        String[] kind = socioRejects.get(0).split("\t");
        assertEquals("2", kind[1], "the line number of the row");
        assertEquals("invalid-code", kind[2]);
        assertTrue(kind[3].contains("TIPO ERRADO"), kind[3]);

        try (LuceneRegister register = LuceneRegister.open(tmp.resolve("index"))) {
            List<Partner> partners = register.partners(new CnpjRoot(ROOT));
            assertEquals(
                    List.of("BOA", "DATA RUIM"),
                    partners.stream().map(Partner::name).toList());
            assertNull(partners.get(1).entryDate(), "an invalid date is stored as absent");
        }
    }

    @Test
    void aGenerationWithoutAPartnerStructureAsksForALoadThatRebuildsIt() throws Exception {
        DumpLoader.Result result = load(dump("d", "EMPRESA A LTDA", SOCIOS), tmp.resolve("index"));
        Path partners = result.published().path().resolve("partners");
        assertTrue(Files.isDirectory(partners), "a load writes the partner index inside its generation");
        // A generation published before partners were loaded has no such folder.
        try (Stream<Path> files = Files.walk(partners)) {
            for (Path p :
                    files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(p);
            }
        }

        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> LuceneRegister.open(tmp.resolve("index")));
        assertTrue(e.getMessage().contains("(no partners)"), e.getMessage());
        assertTrue(e.getMessage().contains("run `cadastro load` again"), e.getMessage());

        // What the message asks for: a load into the same index publishes a generation that opens.
        load(dump("d2", "EMPRESA A LTDA", SOCIOS), tmp.resolve("index"));
        try (LuceneRegister register = LuceneRegister.open(tmp.resolve("index"))) {
            assertEquals(4, register.partners(new CnpjRoot(ROOT)).size());
            assertEquals(
                    "EMPRESA A LTDA",
                    register.lookup(Cnpj.of(CNPJ)).orElseThrow().razaoSocial());
        }
    }

    @Test
    void aRepublishSwapsThePartnersWithTheRecordsTheyWereLoadedWith() throws Exception {
        Path index = tmp.resolve("index");
        String one = row(ROOT, "2", "GEN1 A", "***111111**", "49", "20150302", "", "***000000**", "", "00", "5")
                + row(ROOT, "2", "GEN1 B", "***222222**", "22", "20150302", "", "***000000**", "", "00", "5");
        String two = row(ROOT, "2", "GEN2 A", "***333333**", "49", "20150302", "", "***000000**", "", "00", "5")
                + row(ROOT, "2", "GEN2 B", "***444444**", "22", "20150302", "", "***000000**", "", "00", "5")
                + row(ROOT, "2", "GEN2 C", "***555555**", "22", "20150302", "", "***000000**", "", "00", "5");
        Path first = dump("one", "GEN1 LTDA", one);
        Path second = dump("two", "GEN2 LTDA", two);
        load(first, index);
        Set<List<String>> allowed = Set.of(List.of("GEN1 A", "GEN1 B"), List.of("GEN2 A", "GEN2 B", "GEN2 C"));

        try (LuceneRegister register = LuceneRegister.open(
                index, SearchOptions.builder().refreshInterval(Duration.ZERO).build())) {
            assertEquals(List.of("GEN1 A", "GEN1 B"), names(register));
            Set<List<String>> seen = ConcurrentHashMap.newKeySet();
            List<String> wrong = new ArrayList<>();
            AtomicBoolean stop = new AtomicBoolean();
            Thread reader = new Thread(() -> {
                while (!stop.get()) {
                    List<String> got = names(register);
                    seen.add(got);
                    if (!allowed.contains(got)) {
                        synchronized (wrong) {
                            wrong.add(got.toString());
                        }
                    }
                }
            });
            reader.start();
            try {
                for (int i = 0; i < 4; i++) {
                    load(i % 2 == 0 ? second : first, index);
                    // Published but not yet switched to: still the first generation's records and partners.
                    assertEquals(i % 2 == 0 ? "GEN1 LTDA" : "GEN2 LTDA", razao(register));
                    assertTrue(register.refresh());
                    assertEquals(i % 2 == 0 ? "GEN2 LTDA" : "GEN1 LTDA", razao(register));
                    assertEquals(
                            i % 2 == 0 ? List.of("GEN2 A", "GEN2 B", "GEN2 C") : List.of("GEN1 A", "GEN1 B"),
                            names(register));
                }
            } finally {
                stop.set(true);
                reader.join();
            }
            assertEquals(List.of(), wrong, "every answer is one generation's partners, whole");
            assertEquals(allowed, seen, "the reader saw both generations");
        }
    }

    @Test
    void aGeneratedDumpsPartnersComeBackAsItsSociosFilesWroteThem() throws Exception {
        GeneratedDump dump = DumpGenerator.generate(
                tmp.resolve("gen"),
                GeneratorOptions.builder(6_000).seed(21).alphanumericShare(0.05).build());
        Path index = tmp.resolve("index");
        DumpLoader.Result result = DumpLoader.load(
                DumpFixture.options(dump.dir(), tmp.resolve("work")).build(), index, build());

        // The oracle reads the ZIPs itself: every generated field is quoted, none holds ";".
        Map<String, String> qualifications = new HashMap<>();
        for (String[] q : rows(dump.dir().resolve("Qualificacoes.zip"))) {
            qualifications.put(q[0], q[1]);
        }
        Map<String, List<String[]>> byRoot = new LinkedHashMap<>();
        for (int part = 0; part < 10; part++) {
            for (String[] f : rows(dump.dir().resolve("Socios" + part + ".zip"))) {
                assertEquals(11, f.length);
                byRoot.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f);
            }
        }
        long rowCount = byRoot.values().stream().mapToLong(List::size).sum();
        assertEquals(rowCount, result.summary().families().get("Socios").loaded());
        assertEquals(0, result.summary().families().get("Socios").rejected().size());

        Map<Kind, Integer> kinds = new EnumMap<>(Kind.class);
        int represented = 0;
        try (LuceneRegister register = LuceneRegister.open(index)) {
            for (var entry : byRoot.entrySet()) {
                List<Partner> got = register.partners(new CnpjRoot(entry.getKey()));
                List<String[]> want = entry.getValue();
                assertEquals(want.size(), got.size(), entry.getKey());
                for (int i = 0; i < want.size(); i++) {
                    String[] f = want.get(i);
                    Partner p = got.get(i);
                    Kind kind = switch (f[1]) {
                        case "1" -> Kind.COMPANY;
                        case "2" -> Kind.PERSON;
                        default -> Kind.FOREIGNER;
                    };
                    kinds.merge(kind, 1, Integer::sum);
                    assertEquals(kind, p.kind());
                    assertEquals(f[2], p.name());
                    assertEquals(kind == Kind.FOREIGNER ? null : f[3], p.document());
                    if (kind == Kind.COMPANY) {
                        assertTrue(Cnpj.parse(p.document()).isValid(), p.document());
                    } else if (kind == Kind.PERSON) {
                        assertTrue(p.document().matches("\\*\\*\\*\\d{6}\\*\\*"), p.document());
                    }
                    assertEquals(f[4], p.qualificationCode());
                    assertEquals(qualifications.get(f[4]), p.qualification());
                    assertTrue(p.qualification() != null, "every generated qualification is in the table: " + f[4]);
                    assertEquals(
                            LocalDate.parse(f[5], java.time.format.DateTimeFormatter.BASIC_ISO_DATE), p.entryDate());
                    assertEquals(f[6].isEmpty() ? null : f[6], p.countryCode());
                    boolean none = f[7].equals("***000000**");
                    assertEquals(none ? null : f[7], p.representativeCpf());
                    assertEquals(f[8].isEmpty() ? null : f[8], p.representativeName());
                    assertEquals(none ? null : f[9], p.representativeQualificationCode());
                    assertEquals(none ? null : qualifications.get(f[9]), p.representativeQualification());
                    assertEquals(Integer.valueOf(f[10]), p.ageBand());
                    if (!none) {
                        represented++;
                    }
                }
            }
        }
        assertEquals(Set.of(Kind.values()), kinds.keySet(), "companies, persons and foreigners: " + kinds);
        assertTrue(represented > 0, "some partners have a legal representative");
    }

    /** The rows of a ZIP's single entry, fields unquoted. */
    private static List<String[]> rows(Path zip) throws Exception {
        List<String[]> out = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            in.getNextEntry();
            String text = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            for (String line : text.split("\n")) {
                if (!line.isEmpty()) {
                    out.add(line.substring(1, line.length() - 1).split("\";\"", -1));
                }
            }
        }
        return out;
    }

    private static List<String> names(LuceneRegister register) {
        return register.partners(new CnpjRoot(ROOT)).stream().map(Partner::name).toList();
    }

    private static String razao(LuceneRegister register) {
        return register.lookup(Cnpj.of(CNPJ)).orElseThrow().razaoSocial();
    }

    @Test
    void aRegisterNotYetRefreshedKeepsAnsweringItsOwnGenerationsPartners() throws Exception {
        // Partners come from the generation the register holds, not from whatever CURRENT names: a fresh
        // register answers the new partners while one opened before, not refreshed, keeps the old ones.
        Path index = tmp.resolve("index");
        load(dump("one", "GEN1 LTDA", SOCIOS), index);
        try (LuceneRegister old = LuceneRegister.open(
                index, SearchOptions.builder().refreshInterval(Duration.ZERO).build())) {
            load(
                    dump(
                            "two",
                            "GEN2 LTDA",
                            row(ROOT, "2", "OUTRO", "***999000**", "49", "20150302", "", "***000000**", "", "00", "5")),
                    index);
            try (LuceneRegister fresh = LuceneRegister.open(index)) {
                assertEquals(List.of("OUTRO"), names(fresh));
            }
            assertEquals(4, old.partners(new CnpjRoot(ROOT)).size());
            assertFalse(names(old).contains("OUTRO"));
        }
    }
}
