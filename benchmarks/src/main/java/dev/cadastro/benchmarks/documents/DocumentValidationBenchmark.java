package dev.cadastro.benchmarks.documents;

import br.com.caelum.stella.validation.CNPJValidator;
import br.com.caelum.stella.validation.CPFValidator;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.util.concurrent.TimeUnit;
import org.hibernate.validator.HibernateValidator;
import org.hibernate.validator.constraints.br.CNPJ;
import org.hibernate.validator.constraints.br.CPF;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * CPF and CNPJ validation: ours against Hibernate Validator 9.1 and Caelum Stella 2.2, in the same
 * run, over the same {@value DocumentInputs#SIZE} valid documents (half formatted; a quarter of the
 * CNPJs alphanumeric).
 *
 * <p>Production paths exercised: {@link Cpf#isValid(CharSequence)} and {@link
 * Cnpj#isValid(CharSequence)} (the allocation-free check used on hot paths such as the batch person
 * lookup and the register filters), and {@link Cpf#parse(CharSequence)} and {@link
 * Cnpj#parse(CharSequence)} (what {@code GET /empresas/{cnpj}}, the credit and person lookups and
 * {@code ./cadastro validate} call on every request). The peers are called the way their users call
 * them: Hibernate through the public {@link Validator#validateValue} API with the constraint on a
 * field ({@code @CPF}, {@code @CNPJ(format = ALPHANUMERIC)}, so that it accepts the alphanumeric
 * quarter); Stella through its {@code CPFValidator}/{@code CNPJValidator}, choosing the formatted or
 * the plain validator by the input's length, as a caller of a mixed feed must.
 *
 * <p>Each invocation validates the whole array and hands every answer to the {@link Blackhole}; the
 * figures are per document ({@link OperationsPerInvocation}). The inputs come from a field, never a
 * constant, so nothing folds. Setup checks that every library accepts every input, so all do the same
 * (full) work.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DocumentValidationBenchmark {

    private static final int N = DocumentInputs.SIZE;

    static final class Hibernate {
        @CPF
        String cpf;

        @CNPJ(format = CNPJ.Format.ALPHANUMERIC)
        String cnpj;
    }

    private String[] cpfs;
    private String[] cnpjs;

    private ValidatorFactory factory;
    private Validator hibernate;
    private CPFValidator stellaCpfFormatted;
    private CPFValidator stellaCpfPlain;
    private CNPJValidator stellaCnpjFormatted;
    private CNPJValidator stellaCnpjPlain;

    @Setup
    public void setUp() {
        cpfs = DocumentInputs.cpfs(20260701L);
        cnpjs = DocumentInputs.cnpjs(20260702L);
        factory = Validation.byProvider(HibernateValidator.class)
                .configure()
                .messageInterpolator(new ParameterMessageInterpolator())
                .buildValidatorFactory();
        hibernate = factory.getValidator();
        stellaCpfFormatted = new CPFValidator(true);
        stellaCpfPlain = new CPFValidator(false);
        stellaCnpjFormatted = new CNPJValidator(true);
        stellaCnpjPlain = new CNPJValidator(false);
        for (String cpf : cpfs) {
            require(Cpf.isValid(cpf) && Cpf.parse(cpf).isValid(), "ours", cpf);
            require(hibernateCpf(cpf), "hibernate", cpf);
            require(stellaCpf(cpf), "stella", cpf);
        }
        for (String cnpj : cnpjs) {
            require(Cnpj.isValid(cnpj) && Cnpj.parse(cnpj).isValid(), "ours", cnpj);
            require(hibernateCnpj(cnpj), "hibernate", cnpj);
            require(stellaCnpj(cnpj), "stella", cnpj);
        }
    }

    @TearDown
    public void tearDown() {
        factory.close();
    }

    private static void require(boolean valid, String who, String input) {
        if (!valid) {
            throw new IllegalStateException(who + " rejects the benchmark input " + input);
        }
    }

    private boolean hibernateCpf(String cpf) {
        return hibernate.validateValue(Hibernate.class, "cpf", cpf).isEmpty();
    }

    private boolean hibernateCnpj(String cnpj) {
        return hibernate.validateValue(Hibernate.class, "cnpj", cnpj).isEmpty();
    }

    private boolean stellaCpf(String cpf) {
        return (cpf.length() == 14 ? stellaCpfFormatted : stellaCpfPlain)
                .invalidMessagesFor(cpf)
                .isEmpty();
    }

    private boolean stellaCnpj(String cnpj) {
        return (cnpj.length() == 18 ? stellaCnpjFormatted : stellaCnpjPlain)
                .invalidMessagesFor(cnpj)
                .isEmpty();
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void cpfOursIsValid(Blackhole bh) {
        for (String cpf : cpfs) {
            bh.consume(Cpf.isValid(cpf));
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void cpfOursParse(Blackhole bh) {
        for (String cpf : cpfs) {
            bh.consume(Cpf.parse(cpf));
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void cpfHibernateValidator(Blackhole bh) {
        for (String cpf : cpfs) {
            bh.consume(hibernateCpf(cpf));
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void cpfStella(Blackhole bh) {
        for (String cpf : cpfs) {
            bh.consume(stellaCpf(cpf));
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void cnpjOursIsValid(Blackhole bh) {
        for (String cnpj : cnpjs) {
            bh.consume(Cnpj.isValid(cnpj));
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void cnpjOursParse(Blackhole bh) {
        for (String cnpj : cnpjs) {
            bh.consume(Cnpj.parse(cnpj));
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void cnpjHibernateValidator(Blackhole bh) {
        for (String cnpj : cnpjs) {
            bh.consume(hibernateCnpj(cnpj));
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void cnpjStella(Blackhole bh) {
        for (String cnpj : cnpjs) {
            bh.consume(stellaCnpj(cnpj));
        }
    }
}
