package dev.cadastro.register;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Lookups;
import dev.cadastro.core.register.RegisterQuery;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reference semantics of a register query, written straight over the generated establishments
 * (no index): the independent count the register's counts are compared with.
 */
final class ReferenceFilter {
    private final RegisterQuery q;
    private final Set<String> municipioCodes;
    private final Set<String> ufs, bairros, ddds, cnaes, cnaes2, naturezas, situacoes, portes;
    private final Boolean mei, simples, telefone, movel, email, divida;
    private final LocalDate de, ate;
    private final BigDecimal min, max;

    ReferenceFilter(RegisterQuery q, Lookups lookups) {
        this.q = q;
        this.municipioCodes = q.municipios().isEmpty() ? null : resolve(q, lookups);
        this.ufs = new HashSet<>(q.ufs());
        this.bairros = new HashSet<>(q.bairros());
        this.ddds = new HashSet<>(q.ddds());
        this.cnaes = new HashSet<>(q.cnaes());
        this.cnaes2 = new HashSet<>(q.cnaesSecundarios());
        this.naturezas = new HashSet<>(q.naturezas());
        this.situacoes = new HashSet<>(q.situacaoCadastral());
        this.portes = new HashSet<>(q.portes());
        this.mei = q.mei().orElse(null);
        this.simples = q.simples().orElse(null);
        this.telefone = q.comTelefone().orElse(null);
        this.movel = q.comTelefoneMovel().orElse(null);
        this.email = q.comEmail().orElse(null);
        this.divida = q.divida().orElse(null);
        this.de = q.aberturaDe().orElse(null);
        this.ate = q.aberturaAte().orElse(null);
        this.min = q.capitalMin().orElse(null);
        this.max = q.capitalMax().orElse(null);
    }

    long count(List<Establishment> rows) {
        long n = 0;
        for (Establishment e : rows) {
            if (matches(e)) {
                n++;
            }
        }
        return n;
    }

    boolean matches(Establishment e) {
        if (!ufs.isEmpty() && !ufs.contains(e.uf())) {
            return false;
        }
        if (municipioCodes != null && !municipioCodes.contains(e.municipio())) {
            return false;
        }
        if (!bairros.isEmpty() && (e.bairro() == null || !bairros.contains(RegisterQuery.normalizeText(e.bairro())))) {
            return false;
        }
        if (!ddds.isEmpty() && noneIn(e, ddds)) {
            return false;
        }
        if (!cnaes.isEmpty() && !cnaes.contains(e.cnaePrincipal())) {
            return false;
        }
        if (!cnaes2.isEmpty() && java.util.Collections.disjoint(e.cnaesSecundarios(), cnaes2)) {
            return false;
        }
        Establishment.Company c = e.company();
        if (!naturezas.isEmpty() && (c == null || !naturezas.contains(c.naturezaJuridica()))) {
            return false;
        }
        if (!situacoes.isEmpty() && !situacoes.contains(e.situacaoCadastral())) {
            return false;
        }
        if (!portes.isEmpty() && (c == null || !portes.contains(c.porte()))) {
            return false;
        }
        if (mei != null && mei != e.isMei()) {
            return false;
        }
        if (simples != null && simples != e.isSimples()) {
            return false;
        }
        if (telefone != null && telefone != e.hasPhone()) {
            return false;
        }
        if (movel != null && movel != e.hasMobile()) {
            return false;
        }
        if (email != null && email != e.hasEmail()) {
            return false;
        }
        if (divida != null && divida != e.divida()) {
            return false;
        }
        if (de != null || ate != null) {
            LocalDate d = e.dataAbertura();
            if (d == null || (de != null && d.isBefore(de)) || (ate != null && d.isAfter(ate))) {
                return false;
            }
        }
        if (min != null || max != null) {
            if (c == null || c.capitalSocialCentavos() == null) {
                return false;
            }
            BigDecimal reais = BigDecimal.valueOf(c.capitalSocialCentavos(), 2);
            if ((min != null && reais.compareTo(min) < 0) || (max != null && reais.compareTo(max) > 0)) {
                return false;
            }
        }
        return true;
    }

    private static boolean noneIn(Establishment e, Set<String> ddds) {
        for (Establishment.PhoneNumber p : e.telefones()) {
            if (ddds.contains(p.ddd())) {
                return false;
            }
        }
        return true;
    }

    private static Set<String> resolve(RegisterQuery q, Lookups lookups) {
        Set<String> out = new HashSet<>();
        for (String m : q.municipios()) {
            if (m.matches("\\d{4}")) {
                out.add(m);
            } else if (m.matches("\\d{7}")) {
                for (Map.Entry<String, String> e : lookups.municipiosIbge().entrySet()) {
                    if (e.getValue().equals(m)) {
                        out.add(e.getKey());
                    }
                }
            } else {
                String n = RegisterQuery.normalizeText(m);
                for (Map.Entry<String, String> e : lookups.municipios().entrySet()) {
                    String uf = lookups.municipiosUf().get(e.getKey());
                    if (RegisterQuery.normalizeText(e.getValue()).equals(n)
                            && (q.ufs().isEmpty() || uf == null || q.ufs().contains(uf))) {
                        out.add(e.getKey());
                    }
                }
            }
        }
        return out;
    }
}
