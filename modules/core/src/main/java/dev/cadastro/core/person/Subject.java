package dev.cadastro.core.person;

import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.Phone;
import java.util.Objects;

/**
 * Whom a person lookup is about: a CPF, or a phone with its area code (reverse lookup). {@link
 * #toString()} is masked, so a subject never reaches a log whole by accident.
 */
public sealed interface Subject {
    /** {@code CPF} or {@code TELEFONE}, as the audit trail records it. */
    String kind();

    /** The digits that identify the subject: the CPF's 11, or the phone's area code and number. */
    String canonical();

    /** A form that can be logged: the CPF's public mask, or the phone's area code and last two digits. */
    String masked();

    /** A lookup by CPF. */
    record ByCpf(Cpf cpf) implements Subject {
        public ByCpf {
            Objects.requireNonNull(cpf, "cpf");
        }

        @Override
        public String kind() {
            return "CPF";
        }

        @Override
        public String canonical() {
            return cpf.canonical();
        }

        @Override
        public String masked() {
            return cpf.masked();
        }

        @Override
        public String toString() {
            return "ByCpf[" + masked() + "]";
        }
    }

    /** A reverse lookup by phone. */
    record ByPhone(Phone phone) implements Subject {
        public ByPhone {
            Objects.requireNonNull(phone, "phone");
        }

        @Override
        public String kind() {
            return "TELEFONE";
        }

        @Override
        public String canonical() {
            return phone.national();
        }

        @Override
        public String masked() {
            String n = phone.national();
            return "(" + n.substring(0, 2) + ") " + "*".repeat(n.length() - 4) + n.substring(n.length() - 2);
        }

        @Override
        public String toString() {
            return "ByPhone[" + masked() + "]";
        }
    }
}
