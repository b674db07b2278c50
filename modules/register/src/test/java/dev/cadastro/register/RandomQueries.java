package dev.cadastro.register;

import dev.cadastro.core.register.RegisterQuery;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.SplittableRandom;

/** Random filter combinations shaped like real use: one to four filters, frequent values more likely. */
final class RandomQueries {
    private static final String[] UFS = {"SP", "SP", "MG", "RJ", "RS", "PR", "BA", "RR", "AC", "EX"};
    private static final String[] NAMES = {"SAO PAULO", "São Paulo", "rio de janeiro", "BELO HORIZONTE", "Boa Vista"};

    private final SyntheticRegister shape;

    RandomQueries(SyntheticRegister shape) {
        this.shape = shape;
    }

    /** Filter kinds of {@link #addFilter} on the precomputed counts' dimensions (place, CNAE, flags...). */
    private static final int[] ROLLUP_KINDS = {0, 1, 4, 7, 8, 9, 10, 11, 12, 13, 14};

    RegisterQuery next(SplittableRandom r) {
        return next(r, null);
    }

    /** A query of one to four filters, each of the precomputed counts' dimensions. */
    RegisterQuery nextOnRollupDimensions(SplittableRandom r) {
        return next(r, ROLLUP_KINDS);
    }

    /** Filter kinds of {@link #addFilter} on the dimensions of the opening-year cuboid (state, situation). */
    private static final int[] YEAR_CUBOID_KINDS = {0, 7};

    /**
     * A query with an opening-date range, of whole years or not, and none to two other filters, on the
     * opening-year cuboid's dimensions or on any of the precomputed counts'.
     */
    RegisterQuery nextWithOpeningDates(SplittableRandom r) {
        for (; ; ) {
            RegisterQuery.Builder b = RegisterQuery.builder();
            int filters = r.nextInt(3);
            for (int i = 0; i < filters; i++) {
                int[] kinds = r.nextInt(3) > 0 ? YEAR_CUBOID_KINDS : ROLLUP_KINDS;
                addFilter(b, r, kinds[r.nextInt(kinds.length)]);
            }
            openingDates(b, r);
            try {
                return b.build();
            } catch (dev.cadastro.core.error.InvalidParameterException e) {
                // A range drawn backwards: draw again.
            }
        }
    }

    /**
     * Ranges before, across and after the generated opening years (1901-2026): both bounds, one, a single
     * year, one far outside the data, and ranges that start or end inside a year.
     */
    private static void openingDates(RegisterQuery.Builder b, SplittableRandom r) {
        int first = 1880 + r.nextInt(160);
        int last = first + r.nextInt(r.nextBoolean() ? 3 : 60);
        LocalDate from = LocalDate.of(first, 1, 1);
        LocalDate to = LocalDate.of(last, 12, 31);
        switch (r.nextInt(8)) {
            case 0 -> b.aberturaDe(from).aberturaAte(to);
            case 1 -> b.aberturaDe(from);
            case 2 -> b.aberturaAte(to);
            case 3 -> b.aberturaDe(from).aberturaAte(LocalDate.of(first, 12, 31));
            case 4 -> {
                if (r.nextBoolean()) {
                    b.aberturaDe(LocalDate.of(2100 + r.nextInt(7000), 1, 1));
                } else {
                    b.aberturaAte(LocalDate.of(1000 + r.nextInt(800), 12, 31));
                }
            }
            case 5 -> b.aberturaDe(from.plusDays(1 + r.nextInt(364)));
            case 6 -> {
                b.aberturaDe(from);
                b.aberturaAte(to.minusDays(1 + r.nextInt(364)));
            }
            default -> {
                b.aberturaDe(from.plusDays(1 + r.nextInt(364)));
                b.aberturaAte(to);
            }
        }
    }

    private RegisterQuery next(SplittableRandom r, int[] kinds) {
        for (; ; ) {
            RegisterQuery.Builder b = RegisterQuery.builder();
            int filters = 1 + r.nextInt(4);
            for (int i = 0; i < filters; i++) {
                addFilter(b, r, kinds == null ? r.nextInt(19) : kinds[r.nextInt(kinds.length)]);
            }
            try {
                return b.build();
            } catch (dev.cadastro.core.error.InvalidParameterException e) {
                // Two date or capital filters drawn into an empty range: draw again.
            }
        }
    }

    private void addFilter(RegisterQuery.Builder b, SplittableRandom r, int kind) {
        List<String> cnaes = shape.cnaesByFrequency();
        switch (kind) {
            case 0 -> {
                b.ufs(UFS[r.nextInt(UFS.length)]);
                if (r.nextBoolean()) {
                    b.ufs(UFS[r.nextInt(UFS.length)]);
                }
            }
            case 1 -> {
                int form = r.nextInt(3);
                String uf = r.nextBoolean() ? "SP" : "MG";
                List<String> muns = shape.municipiosByFrequency(uf);
                String code = muns.get(Math.min(muns.size() - 1, (int) Math.abs(r.nextGaussian() * 5)));
                if (form == 0) {
                    b.municipios(code);
                } else if (form == 1) {
                    b.municipios(SyntheticRegister.lookups().municipiosIbge().get(code));
                } else {
                    String name = NAMES[r.nextInt(NAMES.length)];
                    b.municipios(name);
                    if (name.equalsIgnoreCase("Boa Vista")) {
                        b.ufs("RR");
                    }
                }
            }
            case 2 -> b.bairros(r.nextBoolean() ? "centro" : "Sao Jose");
            case 3 -> b.ddds(r.nextBoolean() ? "11" : "31");
            case 4 -> {
                b.cnaes(cnaes.get(r.nextInt(5)));
                if (r.nextBoolean()) {
                    b.cnaes(cnaes.get(r.nextInt(200)));
                }
            }
            case 5 -> b.cnaesSecundarios(cnaes.get(r.nextInt(10)), cnaes.get(r.nextInt(100)));
            case 6 -> b.naturezas(r.nextBoolean() ? "2135" : "2062");
            case 7 -> b.situacaoCadastral(r.nextInt(3) == 0 ? "08" : "02");
            case 8 -> b.portes(r.nextBoolean() ? "01" : "05", r.nextInt(4) == 0 ? "00" : "01");
            case 9 -> b.mei(r.nextBoolean());
            case 10 -> b.simples(r.nextBoolean());
            case 11 -> b.comTelefone(r.nextBoolean());
            case 12 -> b.comTelefoneMovel(r.nextBoolean());
            case 13 -> b.comEmail(r.nextBoolean());
            case 14 -> b.divida(r.nextBoolean());
            case 15, 16 -> {
                LocalDate from = LocalDate.of(1990 + r.nextInt(36), 1 + r.nextInt(12), 1 + r.nextInt(28));
                if (r.nextInt(3) > 0) {
                    b.aberturaDe(r.nextBoolean() ? from : from.withDayOfYear(1));
                }
                if (r.nextInt(3) > 0) {
                    LocalDate to = from.plusDays(r.nextInt(4000));
                    b.aberturaAte(r.nextBoolean() ? to : to.withMonth(12).withDayOfMonth(31));
                } else {
                    b.aberturaDe(from);
                }
            }
            default -> {
                BigDecimal min = round(r, r.nextInt(8));
                if (r.nextBoolean()) {
                    b.capitalMin(min);
                }
                if (r.nextBoolean()) {
                    b.capitalMax(min.multiply(BigDecimal.valueOf(1 + r.nextInt(100))));
                } else {
                    b.capitalMin(min);
                }
            }
        }
    }

    private static BigDecimal round(SplittableRandom r, int digits) {
        if (r.nextInt(3) == 0) {
            return BigDecimal.valueOf(r.nextLong(1, 100_000_000L), 2);
        }
        return BigDecimal.TEN.pow(digits).multiply(BigDecimal.valueOf(1 + r.nextInt(9)));
    }
}
