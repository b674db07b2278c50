package dev.cadastro.register.internal;

import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Lookups;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * The one binary stored field per establishment: the Empresa fields as codes (descriptions come from
 * the generation's lookup tables when read) plus the builder's add sequence, which decides which of two
 * duplicate CNPJs is kept. Strings are length-prefixed UTF-8 (length + 1, 0 for null), numbers are
 * variable-length.
 */
public final class RecordCodec {
    private static final int VERSION = 1;
    private static final long EPOCH_DAY_OF_YEAR_1 = LocalDate.of(1, 1, 1).toEpochDay();

    private RecordCodec() {}

    public static byte[] encode(Establishment e, long sequence) {
        Out out = new Out();
        out.vlong(VERSION);
        out.vlong(sequence);
        out.str(e.cnpj().value());
        Establishment.Company c = e.company();
        out.str(c == null ? null : c.razaoSocial());
        out.str(e.nomeFantasia());
        out.str(e.situacaoCadastral());
        out.str(e.cnaePrincipal());
        out.str(c == null ? null : c.naturezaJuridica());
        out.str(c == null ? null : c.porte());
        Long capital = c == null ? null : c.capitalSocialCentavos();
        out.vlong(capital == null || capital < 0 ? 0 : capital + 1);
        LocalDate d = e.dataAbertura();
        out.vlong(d == null ? 0 : d.toEpochDay() - EPOCH_DAY_OF_YEAR_1 + 1);
        out.str(e.uf());
        out.str(e.municipio());
        out.str(e.bairro());
        out.str(e.cep());
        out.str(e.tipoLogradouro());
        out.str(e.logradouro());
        out.str(e.numero());
        out.str(e.complemento());
        out.str(e.telefones().isEmpty() ? null : e.telefones().get(0).formatted());
        out.str(e.email());
        return out.toByteArray();
    }

    /** The add sequence of an encoded record. */
    public static long sequence(byte[] bytes, int offset) {
        In in = new In(bytes, offset);
        in.vlong();
        return in.vlong();
    }

    /** The CNPJ of an encoded record. */
    public static String cnpj(byte[] bytes, int offset) {
        In in = new In(bytes, offset);
        in.vlong();
        in.vlong();
        return in.str();
    }

    public static Empresa decode(byte[] bytes, int offset, Lookups lookups) {
        In in = new In(bytes, offset);
        long version = in.vlong();
        if (version != VERSION) {
            throw new IllegalStateException("stored record version " + version + " is not " + VERSION);
        }
        in.vlong();
        String cnpj = in.str();
        String razao = in.str();
        String fantasia = in.str();
        String situacao = in.str();
        String cnae = in.str();
        String natureza = in.str();
        String porte = in.str();
        long capital = in.vlong();
        long day = in.vlong();
        String uf = in.str();
        String municipio = in.str();
        String bairro = in.str();
        String cep = in.str();
        String tipo = in.str();
        String logradouro = in.str();
        String numero = in.str();
        String complemento = in.str();
        String telefone = in.str();
        String email = in.str();
        String municipioNome = municipio == null ? null : lookups.municipios().getOrDefault(municipio, municipio);
        return new Empresa(
                cnpj,
                razao,
                fantasia,
                situacao,
                Lookups.situacaoDescricao(situacao),
                cnae,
                cnae == null ? null : lookups.cnaes().get(cnae),
                natureza,
                natureza == null ? null : lookups.naturezas().get(natureza),
                porte,
                Lookups.porteDescricao(porte),
                capital == 0 ? null : BigDecimal.valueOf(capital - 1, 2),
                day == 0
                        ? null
                        : LocalDate.ofEpochDay(day - 1 + LocalDate.of(1, 1, 1).toEpochDay()),
                uf,
                municipioNome,
                bairro,
                cep,
                address(tipo, logradouro, numero, complemento),
                telefone,
                email);
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
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
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

        void str(String s) {
            if (s == null) {
                vlong(0);
                return;
            }
            int n = s.length();
            for (int i = 0; i < n; i++) {
                if (s.charAt(i) >= 0x80) {
                    byte[] b = s.getBytes(StandardCharsets.UTF_8);
                    vlong(b.length + 1L);
                    ensure(b.length);
                    System.arraycopy(b, 0, buf, count, b.length);
                    count += b.length;
                    return;
                }
            }
            vlong(n + 1L); // ASCII: one byte per char, as UTF-8 writes it
            ensure(n);
            for (int i = 0; i < n; i++) {
                buf[count++] = (byte) s.charAt(i);
            }
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

        String str() {
            int n = (int) vlong();
            if (n == 0) {
                return null;
            }
            String s = new String(b, p, n - 1, StandardCharsets.UTF_8);
            p += n - 1;
            return s;
        }
    }
}
