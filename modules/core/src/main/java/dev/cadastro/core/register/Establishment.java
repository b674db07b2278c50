package dev.cadastro.core.register;

import dev.cadastro.core.document.Cnpj;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;

/**
 * One establishment of the register as the loader assembles it: the Estabelecimentos row joined with
 * its company (Empresas), its Simples/MEI options and its PGFN debt flag. This is what the register
 * writer indexes; it holds every field of the contract's Empresa record and every value a {@code GET
 * /empresas} filter needs.
 *
 * <p>Codes are kept exactly as the source writes them (leading zeros included), also when a lookup
 * table lacks them. A field the source leaves empty is {@code null}; a list the source leaves empty is
 * empty. Descriptions (CNAE, municipality, legal nature, ...) are not here: the writer takes the lookup
 * tables once, as {@link Lookups}.
 *
 * @param cnpj the establishment's CNPJ (root, order and check digits of the row)
 * @param headOffice {@code matriz_filial} = 1
 * @param nomeFantasia trade name
 * @param situacaoCadastral status code as written: 01 nula, 02 ativa, 03 suspensa, 04 inapta, 08 baixada
 * @param dataSituacao date of the status; null when empty or invalid in the source
 * @param motivoSituacao reason code of the status
 * @param cidadeExterior city abroad
 * @param pais country code
 * @param dataAbertura {@code data_inicio_atividade}; null when empty or invalid in the source
 * @param cnaePrincipal main CNAE, 7 digits
 * @param cnaesSecundarios secondary CNAEs, 7 digits each, in source order, without duplicates
 * @param tipoLogradouro street type
 * @param logradouro street
 * @param numero number ({@code S/N} when none)
 * @param complemento address complement
 * @param bairro district
 * @param cep postal code, 8 digits
 * @param uf state abbreviation
 * @param municipio the Receita Federal's 4-digit municipality code
 * @param telefones the establishment's phones in source order (phone 1, phone 2), only the usable ones
 * @param fax the fax number, when usable
 * @param email e-mail as written (lower-cased), when present
 * @param situacaoEspecial special situation
 * @param dataSituacaoEspecial date of the special situation
 * @param company the company row; null when the dump has no Empresas row for the root
 * @param simples the Simples/MEI row; null when the dump has none for the root
 * @param divida true when PGFN lists the root with active debt
 */
public record Establishment(
        Cnpj cnpj,
        boolean headOffice,
        String nomeFantasia,
        String situacaoCadastral,
        LocalDate dataSituacao,
        String motivoSituacao,
        String cidadeExterior,
        String pais,
        LocalDate dataAbertura,
        String cnaePrincipal,
        List<String> cnaesSecundarios,
        String tipoLogradouro,
        String logradouro,
        String numero,
        String complemento,
        String bairro,
        String cep,
        String uf,
        String municipio,
        List<PhoneNumber> telefones,
        PhoneNumber fax,
        String email,
        String situacaoEspecial,
        LocalDate dataSituacaoEspecial,
        Company company,
        SimplesOption simples,
        boolean divida) {

    public Establishment {
        Objects.requireNonNull(cnpj, "cnpj");
        cnaesSecundarios = List.copyOf(cnaesSecundarios == null ? List.of() : cnaesSecundarios);
        telefones = List.copyOf(telefones == null ? List.of() : telefones);
    }

    /**
     * A phone of the register: area code and number as the source splits them. Only numbers whose area
     * code is in service are kept (the loader drops junk such as {@code 0000}).
     *
     * @param ddd two-digit area code
     * @param number 8 or 9 digits
     * @param mobile true for 9 digits starting with 9, and for legacy 8-digit numbers starting with 6 to 9
     */
    public record PhoneNumber(String ddd, String number, boolean mobile) {
        public PhoneNumber {
            Objects.requireNonNull(ddd, "ddd");
            Objects.requireNonNull(number, "number");
        }

        /** {@code (11) 91234-5678}. */
        public String formatted() {
            int split = number.length() - 4;
            return "(" + ddd + ") " + number.substring(0, split) + "-" + number.substring(split);
        }
    }

    /**
     * The Empresas row of the establishment's root.
     *
     * @param razaoSocial company name
     * @param naturezaJuridica legal nature code, 4 digits
     * @param qualificacaoResponsavel qualification code of the responsible person
     * @param capitalSocialCentavos share capital in centavos; null when empty or the placeholder
     *     {@code 999999999999}
     * @param porte size code as written: 00, 01, 03 or 05
     * @param enteFederativo federative entity, for legal natures 1XXX
     */
    public record Company(
            String razaoSocial,
            String naturezaJuridica,
            String qualificacaoResponsavel,
            Long capitalSocialCentavos,
            String porte,
            String enteFederativo) {}

    /**
     * The Simples row of the establishment's root. {@code simples} and {@code mei} are null when the
     * source leaves the option blank ("outros").
     */
    public record SimplesOption(
            Boolean simples,
            LocalDate dataOpcaoSimples,
            LocalDate dataExclusaoSimples,
            Boolean mei,
            LocalDate dataOpcaoMei,
            LocalDate dataExclusaoMei) {}

    public boolean hasPhone() {
        return !telefones.isEmpty();
    }

    public boolean hasMobile() {
        for (PhoneNumber p : telefones) {
            if (p.mobile()) {
                return true;
            }
        }
        return false;
    }

    public boolean hasEmail() {
        return email != null && !email.isEmpty();
    }

    /** True when the Simples row says S for MEI. */
    public boolean isMei() {
        return simples != null && Boolean.TRUE.equals(simples.mei());
    }

    /** True when the Simples row says S for Simples. */
    public boolean isSimples() {
        return simples != null && Boolean.TRUE.equals(simples.simples());
    }
}
