package dev.cadastro.register.internal;

import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Lookups;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The record of one establishment: the Empresa fields as codes (descriptions come from the generation's
 * lookup tables when read) plus the builder's add sequence, which decides which of two duplicate CNPJs
 * is kept (absent in the first copy of a CNPJ, nearly every record: {@link SeenKeys}). Every record is
 * decoded on its own, with no block to inflate (docs/adr/0030-record-store.md).
 *
 * <p>Version 2 (written now, as version 3 when the sequence is 0: the same fields without it) is compact
 * without a general compressor: codes of the generation's lookup tables and of the layout's fixed lists
 * are ordinals, a CNPJ or CEP of digits is a number, a phone in its {@code (DD) NNNN-NNNN} form is its
 * digits, and text is packed six bits a character where that is smaller (other bytes escaped). Any
 * value outside those shapes is kept as written, so every record decodes to exactly the text it was
 * given.
 */
public final class RecordCodec {
    static final int VERSION = 2;
    /** Version 2 without the sequence: the first copy of a CNPJ (sequence 0), nearly every record. */
    static final int VERSION_FIRST_COPY = 3;

    private static final long EPOCH_DAY_OF_YEAR_1 = LocalDate.of(1, 1, 1).toEpochDay();

    /** Fixed lists of the format: changing one changes what existing version-2 records decode to. */
    static final List<String> UFS = List.of(
            "AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA", "PB", "PE", "PI", "PR",
            "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO", "EX");

    static final List<String> SITUACOES = List.of("01", "02", "03", "04", "08");
    static final List<String> PORTES = List.of("00", "01", "03", "05");
    static final List<String> TIPOS_LOGRADOURO = List.of(
            "RUA",
            "AVENIDA",
            "TRAVESSA",
            "ESTRADA",
            "RODOVIA",
            "ALAMEDA",
            "PRACA",
            "QUADRA",
            "LOTEAMENTO",
            "SITIO",
            "FAZENDA",
            "CONJUNTO",
            "VIA",
            "LARGO",
            "VILA",
            "BECO",
            "SETOR",
            "CHACARA",
            "ACESSO",
            "LADEIRA",
            "PARQUE",
            "JARDIM",
            "AREA",
            "BLOCO",
            "CONDOMINIO",
            "RESIDENCIAL",
            "NUCLEO",
            "DISTRITO",
            "POVOADO",
            "COMUNIDADE",
            "LOCALIDADE",
            "ZONA RURAL",
            "GALERIA",
            "PASSAGEM",
            "VIELA",
            "CAMPO",
            "PATIO",
            "PRAIA",
            "SERVIDAO",
            "CAMINHO",
            "RAMAL",
            "LINHA",
            "KM",
            "ESTRADA MUNICIPAL",
            "RODOVIA ESTADUAL",
            "RODOVIA FEDERAL",
            "ACAMPAMENTO",
            "AEROPORTO",
            "PORTO",
            "ILHA",
            "VALE",
            "MORRO",
            "SUPERQUADRA",
            "ENTREQUADRA",
            "COLONIA",
            "CONJUNTO HABITACIONAL",
            "BOULEVARD",
            "CALCADAO",
            "CONTORNO",
            "ESPLANADA",
            "MARGINAL",
            "TREVO",
            "VIADUTO",
            "VIA LOCAL");

    /** Six-bit alphabets of packed text; code {@value #ESCAPE} is followed by one raw byte. */
    private static final int ESCAPE = 63;

    private static final byte[] UPPER = alphabet(" ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,-/&()'\":;@_+*#!?%$=");
    private static final byte[] LOWER = alphabet(" abcdefghijklmnopqrstuvwxyz0123456789.,-/&()'\":;@_+*#!?%$=");
    private static final byte[] UPPER_CODES = codes(UPPER);
    private static final byte[] LOWER_CODES = codes(LOWER);

    private final Dictionary ufs;
    private final Dictionary situacoes;
    private final Dictionary portes;
    private final Dictionary tipos;
    private final Dictionary cnaes;
    private final Dictionary naturezas;
    private final Dictionary municipios;
    private final String[] cnaeDescricoes;
    private final String[] naturezaDescricoes;
    private final String[] municipioNomes;
    private final String[] situacaoDescricoes;
    private final String[] porteDescricoes;
    private final Lookups lookups;

    /** A codec for the records of one generation: ordinals of its lookup tables, in code order. */
    public RecordCodec(Lookups lookups) {
        this.lookups = lookups;
        this.ufs = new Dictionary(UFS);
        this.situacoes = new Dictionary(SITUACOES);
        this.portes = new Dictionary(PORTES);
        this.tipos = new Dictionary(TIPOS_LOGRADOURO);
        this.cnaes = new Dictionary(List.copyOf(new TreeSet<>(lookups.cnaes().keySet())));
        this.naturezas =
                new Dictionary(List.copyOf(new TreeSet<>(lookups.naturezas().keySet())));
        this.municipios =
                new Dictionary(List.copyOf(new TreeSet<>(lookups.municipios().keySet())));
        this.cnaeDescricoes = describe(cnaes, lookups.cnaes()::get);
        this.naturezaDescricoes = describe(naturezas, lookups.naturezas()::get);
        this.municipioNomes = describe(municipios, lookups.municipios()::get);
        this.situacaoDescricoes = describe(situacoes, Lookups::situacaoDescricao);
        this.porteDescricoes = describe(portes, Lookups::porteDescricao);
    }

    public byte[] encode(Establishment e, long sequence) {
        Out out = new Out();
        if (sequence == 0) {
            out.vlong(VERSION_FIRST_COPY);
        } else {
            out.vlong(VERSION);
            out.vlong(sequence);
        }
        out.digits(e.cnpj().value(), 14);
        Establishment.Company c = e.company();
        out.text(c == null ? null : c.razaoSocial(), UPPER_CODES);
        out.text(e.nomeFantasia(), UPPER_CODES);
        out.code(e.situacaoCadastral(), situacoes);
        out.code(e.cnaePrincipal(), cnaes);
        out.code(c == null ? null : c.naturezaJuridica(), naturezas);
        out.code(c == null ? null : c.porte(), portes);
        Long capital = c == null ? null : c.capitalSocialCentavos();
        out.vlong(capital == null || capital < 0 ? 0 : capital + 1);
        LocalDate d = e.dataAbertura();
        out.vlong(d == null ? 0 : d.toEpochDay() - EPOCH_DAY_OF_YEAR_1 + 1);
        out.code(e.uf(), ufs);
        out.code(e.municipio(), municipios);
        out.text(e.bairro(), UPPER_CODES);
        out.digits(e.cep(), 8);
        out.code(e.tipoLogradouro(), tipos);
        out.text(e.logradouro(), UPPER_CODES);
        out.text(e.numero(), UPPER_CODES);
        out.text(e.complemento(), UPPER_CODES);
        out.phone(e.telefones().isEmpty() ? null : e.telefones().get(0).formatted());
        out.text(e.email(), LOWER_CODES);
        return out.toByteArray();
    }

    /** The add sequence of an encoded record (any version; 0 in a version-3 record). */
    public static long sequence(byte[] bytes, int offset) {
        In in = new In(bytes, offset);
        return in.vlong() == VERSION_FIRST_COPY ? 0 : in.vlong();
    }

    /** Where an encoded record's fields start, after its version and add sequence. */
    public static int bodyOffset(byte[] bytes, int offset) {
        In in = new In(bytes, offset);
        if (in.vlong() == VERSION) {
            in.vlong();
        }
        return in.p;
    }

    /** Decodes a record, with this generation's descriptions. */
    public Empresa decode(byte[] bytes, int offset) {
        In in = new In(bytes, offset);
        long version = in.vlong();
        if (version == VERSION) {
            in.vlong();
        } else if (version != VERSION_FIRST_COPY) {
            throw new IllegalStateException(
                    "stored record version " + version + " is not " + VERSION + " or " + VERSION_FIRST_COPY);
        }
        String cnpj = in.digits(14);
        String razao = in.text(UPPER);
        String fantasia = in.text(UPPER);
        int situacao = in.code();
        String situacaoCode = in.value(situacao, situacoes);
        int cnae = in.code();
        String cnaeCode = in.value(cnae, cnaes);
        int natureza = in.code();
        String naturezaCode = in.value(natureza, naturezas);
        int porte = in.code();
        String porteCode = in.value(porte, portes);
        long capital = in.vlong();
        long day = in.vlong();
        String uf = in.value(in.code(), ufs);
        int municipio = in.code();
        String municipioCode = in.value(municipio, municipios);
        String bairro = in.text(UPPER);
        String cep = in.digits(8);
        String tipo = in.value(in.code(), tipos);
        String logradouro = in.text(UPPER);
        String numero = in.text(UPPER);
        String complemento = in.text(UPPER);
        String telefone = in.phone();
        String email = in.text(LOWER);
        return new Empresa(
                cnpj,
                razao,
                fantasia,
                situacaoCode,
                describe(situacao, situacaoCode, situacaoDescricoes, Lookups::situacaoDescricao),
                cnaeCode,
                describe(cnae, cnaeCode, cnaeDescricoes, lookups.cnaes()::get),
                naturezaCode,
                describe(natureza, naturezaCode, naturezaDescricoes, lookups.naturezas()::get),
                porteCode,
                describe(porte, porteCode, porteDescricoes, Lookups::porteDescricao),
                capital == 0 ? null : BigDecimal.valueOf(capital - 1, 2),
                day == 0 ? null : LocalDate.ofEpochDay(day - 1 + EPOCH_DAY_OF_YEAR_1),
                uf,
                municipioCode == null
                        ? null
                        : municipio >= Dictionary.FIRST
                                ? orCode(municipioNomes[municipio - Dictionary.FIRST], municipioCode)
                                : lookups.municipios().getOrDefault(municipioCode, municipioCode),
                bairro,
                cep,
                address(tipo, logradouro, numero, complemento),
                telefone,
                email);
    }

    private static String orCode(String name, String code) {
        return name == null ? code : name;
    }

    private static String describe(
            int code, String value, String[] table, java.util.function.Function<String, String> lookup) {
        if (value == null) {
            return null;
        }
        return code >= Dictionary.FIRST ? table[code - Dictionary.FIRST] : lookup.apply(value);
    }

    private static String[] describe(Dictionary d, java.util.function.Function<String, String> lookup) {
        String[] out = new String[d.values.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = lookup.apply(d.values[i]);
        }
        return out;
    }

    /** {@code RUA DAS FLORES, 12, SALA 3}: street type, street, number and complement as written. */
    static String address(String tipo, String logradouro, String numero, String complemento) {
        if (logradouro == null || logradouro.isBlank()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        if (tipo != null && !tipo.isBlank()) {
            sb.append(tipo.strip()).append(' ');
        }
        sb.append(logradouro.strip());
        if (numero != null && !numero.isBlank()) {
            sb.append(", ").append(numero.strip());
        }
        if (complemento != null && !complemento.isBlank()) {
            sb.append(", ").append(complemento.strip());
        }
        return sb.toString();
    }

    /** 64-bit hash of a record (FNV-1a then a murmur finalizer); documents sum it order-independently. */
    public static long hash(byte[] bytes, int offset, int length) {
        long h = 0xcbf29ce484222325L;
        for (int i = offset; i < offset + length; i++) {
            h ^= bytes[i] & 0xff;
            h *= 0x100000001b3L;
        }
        return Mix.fmix64(h);
    }

    private static byte[] alphabet(String symbols) {
        if (symbols.length() > ESCAPE) {
            throw new IllegalStateException("a six-bit alphabet holds at most " + ESCAPE + " symbols");
        }
        return symbols.getBytes(StandardCharsets.US_ASCII);
    }

    /** Byte value to six-bit code, {@value #ESCAPE} for bytes the alphabet lacks. */
    private static byte[] codes(byte[] alphabet) {
        byte[] codes = new byte[256];
        Arrays.fill(codes, (byte) ESCAPE);
        for (int i = 0; i < alphabet.length; i++) {
            codes[alphabet[i] & 0xff] = (byte) i;
        }
        return codes;
    }

    /**
     * Ordinals of a list of codes. A value is written as 0 (null), 1 (written out) or {@link #FIRST} plus
     * its position.
     */
    private static final class Dictionary {
        static final int FIRST = 2;
        final String[] values;
        final Map<String, Integer> ordinals = new HashMap<>();

        Dictionary(List<String> values) {
            this.values = values.toArray(new String[0]);
            for (int i = 0; i < this.values.length; i++) {
                ordinals.put(this.values[i], i);
            }
        }
    }

    /** An unsynchronized byte buffer (ByteArrayOutputStream locks on every byte): the indexing hot path. */
    private static final class Out {
        private byte[] buf = new byte[192];
        private int count;

        private void ensure(int more) {
            if (count + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + more));
            }
        }

        void vlong(long v) {
            ensure(10);
            while ((v & ~0x7FL) != 0) {
                buf[count++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[count++] = (byte) v;
        }

        void code(String s, Dictionary d) {
            if (s == null) {
                vlong(0);
                return;
            }
            Integer ord = d.ordinals.get(s);
            if (ord != null) {
                vlong(ord + Dictionary.FIRST);
            } else {
                vlong(1);
                raw(s);
            }
        }

        /** A string of exactly {@code width} ASCII digits as its number, anything else written out. */
        void digits(String s, int width) {
            if (s == null) {
                vlong(0);
            } else if (s.length() == width && allDigits(s, 0, width)) {
                vlong(Long.parseLong(s) + 2);
            } else {
                vlong(1);
                raw(s);
            }
        }

        /** {@code (DD) NNNN-NNNN} or {@code (DD) NNNNN-NNNN} as its digits and form, anything else written out. */
        void phone(String s) {
            if (s == null) {
                vlong(0);
                return;
            }
            int n = s.length();
            if ((n == 14 || n == 15)
                    && s.charAt(0) == '('
                    && s.charAt(3) == ')'
                    && s.charAt(4) == ' '
                    && s.charAt(n - 5) == '-'
                    && allDigits(s, 1, 3)
                    && allDigits(s, 5, n - 5)
                    && allDigits(s, n - 4, n)) {
                long v = 0;
                for (int i = 0; i < n; i++) {
                    char ch = s.charAt(i);
                    if (ch >= '0' && ch <= '9') {
                        v = v * 10 + (ch - '0');
                    }
                }
                vlong((v << 2) | (n == 14 ? 2 : 3));
            } else {
                vlong(1);
                raw(s);
            }
        }

        private static boolean allDigits(String s, int from, int to) {
            for (int i = from; i < to; i++) {
                char ch = s.charAt(i);
                if (ch < '0' || ch > '9') {
                    return false;
                }
            }
            return true;
        }

        /** Length-prefixed UTF-8 ({@code length + 1}). */
        void raw(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            vlong(b.length + 1L);
            ensure(b.length);
            System.arraycopy(b, 0, buf, count, b.length);
            count += b.length;
        }

        /**
         * Text: 0 for null, else {@code ((utf8Length + 1) << 1) | packed} and the bytes, six bits each in the
         * alphabet of {@code codes} (escaped bytes fourteen) when that is shorter, otherwise as UTF-8.
         */
        void text(String s, byte[] codes) {
            if (s == null) {
                vlong(0);
                return;
            }
            byte[] b = utf8(s);
            int n = b.length;
            long bits = 0;
            for (byte x : b) {
                bits += codes[x & 0xff] == ESCAPE ? 14 : 6;
            }
            int packedBytes = (int) ((bits + 7) >>> 3);
            if (packedBytes >= n) {
                vlong(((n + 1L) << 1));
                ensure(n);
                System.arraycopy(b, 0, buf, count, n);
                count += n;
                return;
            }
            vlong(((n + 1L) << 1) | 1);
            ensure(packedBytes);
            long acc = 0;
            int held = 0;
            for (byte x : b) {
                int code = codes[x & 0xff];
                if (code == ESCAPE) {
                    acc = (acc << 14) | (ESCAPE << 8) | (x & 0xff);
                    held += 14;
                } else {
                    acc = (acc << 6) | code;
                    held += 6;
                }
                while (held >= 8) {
                    held -= 8;
                    buf[count++] = (byte) (acc >>> held);
                }
            }
            if (held > 0) {
                buf[count++] = (byte) (acc << (8 - held));
            }
        }

        private static byte[] utf8(String s) {
            int n = s.length();
            for (int i = 0; i < n; i++) {
                if (s.charAt(i) >= 0x80) {
                    return s.getBytes(StandardCharsets.UTF_8);
                }
            }
            byte[] b = new byte[n];
            for (int i = 0; i < n; i++) {
                b[i] = (byte) s.charAt(i);
            }
            return b;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, count);
        }
    }

    private static final class In {
        private final byte[] b;
        private int p;

        In(byte[] b, int offset) {
            this.b = b;
            this.p = offset;
        }

        long vlong() {
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                byte x = b[p++];
                v |= (long) (x & 0x7F) << shift;
                if (x >= 0) {
                    return v;
                }
            }
        }

        /** Written-out values: length + 1, then UTF-8. */
        String str() {
            int n = (int) vlong();
            if (n == 0) {
                return null;
            }
            String s = new String(b, p, n - 1, StandardCharsets.UTF_8);
            p += n - 1;
            return s;
        }

        int code() {
            return (int) vlong();
        }

        /** The value of a code read by {@link #code()}; reads the written-out string for code 1. */
        String value(int code, Dictionary d) {
            return switch (code) {
                case 0 -> null;
                case 1 -> str();
                default -> d.values[code - Dictionary.FIRST];
            };
        }

        String digits(int width) {
            long v = vlong();
            if (v == 0) {
                return null;
            }
            if (v == 1) {
                return str();
            }
            return zeroPadded(v - 2, width);
        }

        String phone() {
            long v = vlong();
            if (v == 0) {
                return null;
            }
            if (v == 1) {
                return str();
            }
            int digits = (v & 3) == 2 ? 10 : 11;
            byte[] d = new byte[digits];
            long x = v >>> 2;
            for (int i = digits - 1; i >= 0; i--) {
                d[i] = (byte) ('0' + x % 10);
                x /= 10;
            }
            int n = digits + 4;
            byte[] s = new byte[n];
            s[0] = '(';
            s[1] = d[0];
            s[2] = d[1];
            s[3] = ')';
            s[4] = ' ';
            int split = n - 5;
            System.arraycopy(d, 2, s, 5, split - 5);
            s[split] = '-';
            System.arraycopy(d, digits - 4, s, n - 4, 4);
            return new String(s, StandardCharsets.ISO_8859_1);
        }

        String text(byte[] alphabet) {
            long h = vlong();
            if (h == 0) {
                return null;
            }
            int n = (int) ((h >>> 1) - 1);
            if ((h & 1) == 0) {
                String s = new String(b, p, n, StandardCharsets.UTF_8);
                p += n;
                return s;
            }
            byte[] out = new byte[n];
            boolean ascii = true;
            long acc = 0;
            int held = 0;
            for (int i = 0; i < n; i++) {
                if (held < 6) {
                    acc = (acc << 8) | (b[p++] & 0xff);
                    held += 8;
                }
                held -= 6;
                int code = (int) (acc >>> held) & 0x3f;
                if (code == ESCAPE) {
                    if (held < 8) {
                        acc = (acc << 8) | (b[p++] & 0xff);
                        held += 8;
                    }
                    held -= 8;
                    byte x = (byte) (acc >>> held);
                    out[i] = x;
                    ascii &= x >= 0;
                } else {
                    out[i] = alphabet[code];
                }
            }
            return new String(out, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
        }

        private static String zeroPadded(long v, int width) {
            byte[] s = new byte[width];
            for (int i = width - 1; i >= 0; i--) {
                s[i] = (byte) ('0' + v % 10);
                v /= 10;
            }
            return new String(s, StandardCharsets.ISO_8859_1);
        }
    }
}
