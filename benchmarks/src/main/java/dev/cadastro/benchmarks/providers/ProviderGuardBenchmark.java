package dev.cadastro.benchmarks.providers;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.enrichment.BureauCompany;
import dev.cadastro.core.enrichment.CompanyBureau;
import dev.cadastro.providers.GuardedProviders;
import dev.cadastro.providers.ProviderGuard;
import dev.cadastro.providers.ProviderPolicy;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The latency the provider guard adds to a call: {@code GuardedProviders.guard(...).company(cnpj)},
 * the production path every enrichment takes ({@code ProviderGuard.call}: circuit-breaker permission,
 * bulkhead slot, the call on a new virtual thread under resilience4j's TimeLimiter, the outcome
 * recorded), against a direct call to the same instant provider.
 *
 * <p>The provider answers at once with a prebuilt {@link BureauCompany}, so what is measured is the
 * guard alone. {@code virtualThreadFloor} is the part of the guard no breaker library can remove: a
 * task handed to a new virtual thread and awaited, which is what makes the timeout able to free the
 * caller and interrupt the provider. Sample-time mode gives the percentiles (p50, p99) of single calls.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ProviderGuardBenchmark {
    private Cnpj cnpj;
    private CompanyBureau direct;
    private CompanyBureau guarded;
    private ExecutorService virtualThreads;

    @Setup(Level.Trial)
    public void setUp() {
        cnpj = Cnpj.of("11222333000181");
        Optional<BureauCompany> answer = Optional.of(new BureauCompany(
                cnpj.value(),
                new BureauCompany.Porte("01", "MICRO EMPRESA", "0 a 9", "ate R$ 360 mil"),
                null,
                List.of(new BureauCompany.Atividade("6201501", "Desenvolvimento de programas")),
                null,
                List.of(),
                new BureauCompany.Risco("baixo", 800, List.of())));
        direct = asked -> answer;
        // The window is large enough that the breaker never opens on this all-success load.
        guarded = GuardedProviders.guard(direct, ProviderGuard.of("bureau", ProviderPolicy.defaults()));
        virtualThreads = Executors.newVirtualThreadPerTaskExecutor();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        virtualThreads.close();
    }

    @Benchmark
    public Optional<BureauCompany> direct() {
        return direct.company(cnpj);
    }

    @Benchmark
    public Optional<BureauCompany> guarded() {
        return guarded.company(cnpj);
    }

    @Benchmark
    public Optional<BureauCompany> virtualThreadFloor() throws InterruptedException, ExecutionException {
        return virtualThreads.submit(() -> direct.company(cnpj)).get();
    }
}
