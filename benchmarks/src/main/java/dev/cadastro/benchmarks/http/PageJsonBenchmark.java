package dev.cadastro.benchmarks.http;

import dev.cadastro.benchmarks.exports.RealisticLeads;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.http.companydata.CompanyDataJson;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The body of a page of 50 ({@code GET /v1/empresas?limite=50}): {@link CompanyDataJson#searchResponse}
 * writing 50 realistic records to UTF-8 JSON, about 30 KB, the JSON share of a page's CPU on the
 * server. Peer: the same records' strings copied to bytes with {@code String.getBytes(UTF_8)} and no
 * JSON at all (a floor for any writer).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PageJsonBenchmark {
    private SearchResult page;

    @Setup
    public void setUp() {
        List<Empresa> records = List.of(RealisticLeads.generate(50, 21));
        page = new SearchResult(records, 1, 50, 50, 9_151_554, false);
    }

    @Benchmark
    public byte[] page50() {
        return CompanyDataJson.searchResponse(page, false, 50);
    }

    @Benchmark
    public long floorStringBytes() {
        long n = 0;
        for (Empresa e : page.dados()) {
            n += bytes(e.razaoSocial())
                    + bytes(e.nomeFantasia())
                    + bytes(e.cnaeDescricao())
                    + bytes(e.logradouro())
                    + bytes(e.municipio())
                    + bytes(e.email())
                    + bytes(e.telefone())
                    + bytes(e.naturezaDescricao())
                    + bytes(e.bairro())
                    + bytes(e.cnpj())
                    + bytes(e.cep());
        }
        return n;
    }

    private static int bytes(String s) {
        return s == null ? 0 : s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }
}
