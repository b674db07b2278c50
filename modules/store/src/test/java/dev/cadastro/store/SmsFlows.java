package dev.cadastro.store;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKey;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.core.sms.SmsGateway;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;

/** What the SMS tests on a store set up: an account with SMS credits and its key, the use case, a wrong code. */
final class SmsFlows {
    private SmsFlows() {}

    /** A new account on {@code store} with {@code sms} SMS credits, as the holder of a key with scope {@code sms:otp}. */
    static Principal principal(Store store, Clock clock, long sms) {
        Account account = TestDatabase.fundedAccount(store, 0, sms);
        ApiKey key = new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock, new SecureRandom())
                .issue(account.id(), "otp", EnumSet.of(Scope.SMS_OTP))
                .key();
        return new Principal(key, account);
    }

    /** The use case on {@code store} with one server key, {@code k1}. */
    static OtpService service(Store store, SmsGateway gateway, Clock clock) {
        byte[] secret = new byte[32];
        Arrays.fill(secret, (byte) 7);
        Keyring keys = new Keyring(List.of(new Keyring.Key("k1", secret)), "k1");
        return new OtpService(store.otpStore(), gateway, keys, new CostRules(clock), clock, new SecureRandom());
    }

    /** A six-digit code that is not {@code code}. */
    static String wrong(String code) {
        return code.equals("000000") ? "000001" : "000000";
    }
}
