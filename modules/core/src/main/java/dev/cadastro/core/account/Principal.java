package dev.cadastro.core.account;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import java.util.Objects;
import java.util.Set;

/**
 * An authenticated caller: a valid, unrevoked key of an enabled account, as the {@link Authenticator}
 * found it for this request. The guards below throw the contract's 403 codes.
 */
public record Principal(ApiKey key, Account account) {
    public Principal {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(account, "account");
        if (!key.account().equals(account.id())) {
            throw new IllegalArgumentException("key " + key.prefix() + " does not belong to account " + account.id());
        }
    }

    public AccountId accountId() {
        return account.id();
    }

    public Set<Scope> scopes() {
        return key.scopes();
    }

    /** Passes when the key has the scope; otherwise {@code SEM_ESCOPO}. */
    public Principal require(Scope scope) {
        if (!key.scopes().contains(scope)) {
            throw new CadastroException(
                    ErrorCode.SEM_ESCOPO,
                    Message.SCOPE_MISSING.with(key.prefix(), scope.wire()),
                    Message.SCOPES_OF_KEY.with(
                            key.scopes().stream().map(Scope::wire).sorted().toList()));
        }
        return this;
    }

    /** Passes when the account's LGPD accreditation is approved; otherwise {@code CREDENCIAMENTO_PENDENTE}. */
    public Principal requireAccreditation() {
        if (!account.accredited()) {
            throw new CadastroException(
                    ErrorCode.CREDENCIAMENTO_PENDENTE,
                    Message.ACCREDITATION_PENDING.with(account.id(), account.accreditation()));
        }
        return this;
    }

    /**
     * The guards of a person lookup, in the order the contract lists them: the {@code pessoas:read}
     * scope ({@code SEM_ESCOPO}), the key's individual release ({@code PF_NAO_HABILITADA}) and the
     * contracted purpose ({@code FINALIDADE_NAO_CONTRATADA}).
     *
     * @return the dossier fields the purpose releases for this account
     */
    public Set<String> requirePersonLookup(Purpose purpose) {
        Objects.requireNonNull(purpose, "purpose");
        require(Scope.PESSOAS_READ);
        if (!key.personLookupReleased()) {
            throw new CadastroException(
                    ErrorCode.PF_NAO_HABILITADA,
                    Message.PERSON_LOOKUP_NOT_RELEASED.with(key.prefix()),
                    Message.PERSON_LOOKUP_RELEASE_HOW.with());
        }
        Set<String> fields = account.purposes().get(purpose);
        if (fields == null) {
            throw new CadastroException(
                    ErrorCode.FINALIDADE_NAO_CONTRATADA,
                    Message.PURPOSE_NOT_CONTRACTED.with(purpose, account.id()),
                    Message.CONTRACTED_PURPOSES.with(account.purposes().keySet().stream()
                            .map(Enum::name)
                            .sorted()
                            .toList()));
        }
        return fields;
    }
}
