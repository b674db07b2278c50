package dev.cadastro.register;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Lookups;
import dev.cadastro.core.register.RegisterQuery;
import java.math.BigDecimal;
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

    ReferenceFilter(RegisterQuery q, Lookups lookups) {
        this.q = q;
        this.municipioCodes = q.municipios().isEmpty() ? null : resolve(q, lookups);
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
        if (!q.ufs().isEmpty() && !q.ufs().contains(e.uf())) {
            return false;
        }
        if (municipioCodes != null && !municipioCodes.contains(e.municipio())) {
            return false;
        }
        if (!q.bairros().isEmpty()
                && (e.bairro() == null || !q.bairros().contains(RegisterQuery.normalizeText(e.bairro())))) {
            return false;
        }
        if (!q.ddds().isEmpty()
                && e.telefones().stream().noneMatch(p -> q.ddds().contains(p.ddd()))) {
            return false;
        }
        if (!q.cnaes().isEmpty() && !q.cnaes().contains(e.cnaePrincipal())) {
            return false;
        }
        if (!q.cnaesSecundarios().isEmpty()
                && e.cnaesSecundarios().stream().noneMatch(q.cnaesSecundarios()::contains)) {
            return false;
        }
        Establishment.Company c = e.company();
        if (!q.naturezas().isEmpty() && (c == null || !q.naturezas().contains(c.naturezaJuridica()))) {
            return false;
        }
        if (!q.situacaoCadastral().isEmpty() && !q.situacaoCadastral().contains(e.situacaoCadastral())) {
            return false;
        }
        if (!q.portes().isEmpty() && (c == null || !q.portes().contains(c.porte()))) {
            return false;
        }
        if (q.mei().isPresent() && q.mei().get() != e.isMei()) {
            return false;
        }
        if (q.simples().isPresent() && q.simples().get() != e.isSimples()) {
            return false;
        }
        if (q.comTelefone().isPresent() && q.comTelefone().get() != e.hasPhone()) {
            return false;
        }
        if (q.comTelefoneMovel().isPresent() && q.comTelefoneMovel().get() != e.hasMobile()) {
            return false;
        }
        if (q.comEmail().isPresent() && q.comEmail().get() != e.hasEmail()) {
            return false;
        }
        if (q.divida().isPresent() && q.divida().get() != e.divida()) {
            return false;
        }
        if (q.aberturaDe().isPresent() || q.aberturaAte().isPresent()) {
            if (e.dataAbertura() == null) {
                return false;
            }
            if (q.aberturaDe().isPresent()
                    && e.dataAbertura().isBefore(q.aberturaDe().get())) {
                return false;
            }
            if (q.aberturaAte().isPresent()
                    && e.dataAbertura().isAfter(q.aberturaAte().get())) {
                return false;
            }
        }
        if (q.capitalMin().isPresent() || q.capitalMax().isPresent()) {
            if (c == null || c.capitalSocialCentavos() == null) {
                return false;
            }
            BigDecimal reais = BigDecimal.valueOf(c.capitalSocialCentavos(), 2);
            if (q.capitalMin().isPresent() && reais.compareTo(q.capitalMin().get()) < 0) {
                return false;
            }
            if (q.capitalMax().isPresent() && reais.compareTo(q.capitalMax().get()) > 0) {
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
