package dev.cadastro.core.account;

/** The identity of an account: a positive number assigned by the store. */
public record AccountId(long value) implements Comparable<AccountId> {
    public AccountId {
        if (value <= 0) {
            throw new IllegalArgumentException("account id " + value + " must be positive");
        }
    }

    /** Parses the decimal form that {@link #toString()} prints (the admin CLI's {@code --account}). */
    public static AccountId parse(String text) {
        try {
            return new AccountId(Long.parseLong(text.strip()));
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException("account id '" + text + "' is not a positive number", e);
        }
    }

    @Override
    public int compareTo(AccountId other) {
        return Long.compare(value, other.value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
