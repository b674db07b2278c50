package dev.cadastro.server.cli;

import dev.cadastro.providers.FaultPlan;
import dev.cadastro.providers.ProviderPolicy;
import dev.cadastro.server.ProviderOptions;
import dev.cadastro.server.SmsOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The flags of {@code serve} and {@code demo} that shape the simulated providers (bureaus and SMS): their fault plans
 * (to show an outage, a slow provider or a garbage answer) and the timeout of their guards.
 */
final class ProviderFlags {
    private static final String GRAMMAR = "rules separated by ','; a rule is down, slow=DURATION, malformed or"
            + " extra-fields, optionally followed by ;share=0.3 or ;document=CPF-or-CNPJ-digits";

    @Option(
            names = "--bureau-faults",
            paramLabel = "SPEC",
            defaultValue = "none",
            description = "How the simulated enrichment bureau misbehaves (default ${DEFAULT-VALUE}): " + GRAMMAR
                    + ". E.g. down, slow=3s, malformed;share=0.3.")
    String bureauFaults;

    @Option(
            names = "--credit-faults",
            paramLabel = "SPEC",
            defaultValue = "none",
            description = "How the simulated credit bureau misbehaves (default ${DEFAULT-VALUE}), in the grammar"
                    + " of --bureau-faults.")
    String creditFaults;

    @Option(
            names = "--person-faults",
            paramLabel = "SPEC",
            defaultValue = "none",
            description = "How the simulated person bureau misbehaves (default ${DEFAULT-VALUE}), in the grammar"
                    + " of --bureau-faults; a document is the CPF's or the phone's digits.")
    String personFaults;

    @Option(
            names = "--sms-faults",
            paramLabel = "SPEC",
            defaultValue = "none",
            description = "How the simulated SMS provider misbehaves (default ${DEFAULT-VALUE}), in the grammar of"
                    + " --bureau-faults with document= a phone as digits (11987654321); numbers ending in 0000"
                    + " always fail delivery, reported later.")
    String smsFaults;

    @Option(
            names = "--provider-timeout-ms",
            paramLabel = "MS",
            defaultValue = "2000",
            description = "Timeout of each call to a provider, in milliseconds (default ${DEFAULT-VALUE}).")
    long timeoutMillis;

    /** The provider options these flags give; {@code usage} turns a message into the command's usage error. */
    ProviderOptions options(Function<String, ParameterException> usage) {
        FaultPlan bureau = plan("--bureau-faults", bureauFaults, usage);
        FaultPlan credit = plan("--credit-faults", creditFaults, usage);
        FaultPlan person = plan("--person-faults", personFaults, usage);
        // At most a minute: an SMS send is taken as lost after its 2-minute lease (OtpService.SENDING_LEASE),
        // which must outlast any call the guard lets run.
        if (timeoutMillis < 1 || timeoutMillis > 60_000) {
            throw usage.apply("--provider-timeout-ms " + timeoutMillis
                    + " must be between 1 and 60000 (an SMS send is taken as lost after 2 minutes)");
        }
        ProviderPolicy policy;
        try {
            policy = ProviderPolicy.defaults().toBuilder()
                    .timeout(Duration.ofMillis(timeoutMillis))
                    .build();
        } catch (IllegalArgumentException e) {
            throw usage.apply("--provider-timeout-ms: " + e.getMessage());
        }
        return ProviderOptions.simulated()
                .withFaults(bureau, credit)
                .withPersonFaults(person)
                .withPolicy(policy);
    }

    /** The SMS options under {@code home} that these flags give. */
    SmsOptions sms(Path home, Function<String, ParameterException> usage) {
        ProviderOptions providers = options(usage);
        return SmsOptions.under(home)
                .withFaults(plan("--sms-faults", smsFaults, usage))
                .withPolicy(providers.policy());
    }

    private static FaultPlan plan(String flag, String spec, Function<String, ParameterException> usage) {
        try {
            return FaultPlan.parse(spec);
        } catch (IllegalArgumentException e) {
            throw usage.apply(flag + ": " + e.getMessage());
        }
    }
}
