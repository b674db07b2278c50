package dev.cadastro.server;

import dev.cadastro.core.credit.CreditBureau;
import dev.cadastro.core.enrichment.CompanyBureau;
import dev.cadastro.core.register.RegisterSearch;
import dev.cadastro.providers.FaultPlan;
import dev.cadastro.providers.GuardedProviders;
import dev.cadastro.providers.ProviderGuard;
import dev.cadastro.providers.ProviderPolicy;
import dev.cadastro.providers.SimulatedBureau;
import dev.cadastro.providers.SimulatedCreditBureau;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which outside providers the server calls. By default the deterministic simulated bureau and credit
 * bureau over the served register, each behind its own guard (timeout, concurrency bound, circuit
 * breaker) with {@code policy}, misbehaving as their fault plans say (none by default; tests and
 * demos switch faults on at run time through the same plan objects).
 *
 * <p>A host that embeds Cadastro passes its own adapters with {@link #withBureaus}; they are used as
 * given, so the host decides how they are guarded ({@link GuardedProviders} is there for it), and
 * the fault plans and the policy do not apply to them.
 *
 * @param bureau the host's enrichment bureau, or null for the guarded simulated one
 * @param credit the host's credit bureau, or null for the guarded simulated one
 * @param bureauFaults how the simulated bureau misbehaves
 * @param creditFaults how the simulated credit bureau misbehaves
 * @param policy the guard of each simulated provider
 */
public record ProviderOptions(
        CompanyBureau bureau,
        CreditBureau credit,
        FaultPlan bureauFaults,
        FaultPlan creditFaults,
        ProviderPolicy policy) {
    /** The name of the enrichment bureau in guards, logs and errors. */
    public static final String BUREAU = "bureau";
    /** The name of the credit bureau in guards, logs and errors. */
    public static final String CREDIT_BUREAU = "credit-bureau";

    public ProviderOptions {
        Objects.requireNonNull(bureauFaults, "bureauFaults");
        Objects.requireNonNull(creditFaults, "creditFaults");
        Objects.requireNonNull(policy, "policy");
    }

    /** The simulated providers, answering normally, behind the default policy. */
    public static ProviderOptions simulated() {
        return new ProviderOptions(null, null, FaultPlan.none(), FaultPlan.none(), ProviderPolicy.defaults());
    }

    /** The simulated providers misbehave as these plans say. */
    public ProviderOptions withFaults(FaultPlan bureauFaults, FaultPlan creditFaults) {
        return new ProviderOptions(bureau, credit, bureauFaults, creditFaults, policy);
    }

    /** The simulated providers are guarded with this policy. */
    public ProviderOptions withPolicy(ProviderPolicy policy) {
        return new ProviderOptions(bureau, credit, bureauFaults, creditFaults, policy);
    }

    /** The host's own adapters, used as given instead of the simulated ones. */
    public ProviderOptions withBureaus(CompanyBureau bureau, CreditBureau credit) {
        return new ProviderOptions(
                Objects.requireNonNull(bureau, "bureau"),
                Objects.requireNonNull(credit, "credit"),
                bureauFaults,
                creditFaults,
                policy);
    }

    /** The ports the use cases call, over this register. */
    Providers build(RegisterSearch register) {
        List<ProviderGuard> guards = new ArrayList<>();
        CompanyBureau b = bureau;
        if (b == null) {
            ProviderGuard guard = ProviderGuard.of(BUREAU, policy);
            guards.add(guard);
            b = GuardedProviders.guard(new SimulatedBureau(register, bureauFaults), guard);
        }
        CreditBureau c = credit;
        if (c == null) {
            ProviderGuard guard = ProviderGuard.of(CREDIT_BUREAU, policy);
            guards.add(guard);
            c = GuardedProviders.guard(new SimulatedCreditBureau(register, creditFaults), guard);
        }
        return new Providers(b, c, guards);
    }

    /**
     * The provider ports as built for one server: every router of the server shares them and their
     * guards. Closing interrupts the provider calls still running (the server does it before it closes
     * the register the simulated providers read).
     *
     * @param guards the guards this server made (none for a host's own adapters)
     */
    public record Providers(CompanyBureau bureau, CreditBureau credit, List<ProviderGuard> guards)
            implements AutoCloseable {
        public Providers {
            Objects.requireNonNull(bureau, "bureau");
            Objects.requireNonNull(credit, "credit");
            guards = List.copyOf(guards);
        }

        @Override
        public void close() {
            guards.forEach(ProviderGuard::close);
        }
    }
}
