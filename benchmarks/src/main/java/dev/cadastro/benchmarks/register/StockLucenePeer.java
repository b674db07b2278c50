package dev.cadastro.benchmarks.register;

import dev.cadastro.core.register.Lookups;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.register.internal.Municipalities;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSortSortedNumericDocValuesRangeQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * The peer of the register's counts: stock Lucene on the same index files. Each filter is a FILTER
 * clause of a {@code BooleanQuery} (a {@code TermQuery} or {@code TermInSetQuery} on the same terms;
 * geography as {@code IndexSortSortedNumericDocValuesRangeQuery}, stock Lucene's way to use the index
 * sort; date and capital bounds as doc-value range queries), counted by {@code IndexSearcher.count}.
 * Without the query cache, the peer evaluates each query (as a first execution would); with Lucene's
 * default cache, repeated identical queries are answered from cached results, which measures the cache,
 * not the evaluation. Only the filters of the Q1-Q10 mix are mapped.
 */
final class StockLucenePeer implements AutoCloseable {
    private final FSDirectory directory;
    private final DirectoryReader reader;
    private final IndexSearcher searcher;
    private final Lookups lookups;
    private final Municipalities municipalities;

    StockLucenePeer(Path generation, Lookups lookups, boolean queryCache) throws IOException {
        this.directory = FSDirectory.open(generation);
        this.reader = DirectoryReader.open(directory);
        this.searcher = new IndexSearcher(reader);
        if (!queryCache) {
            searcher.setQueryCache(null);
        }
        this.lookups = lookups;
        this.municipalities = new Municipalities(lookups, code -> true);
    }

    long count(RegisterQuery q) throws IOException {
        return searcher.count(toQuery(q));
    }

    Query toQuery(RegisterQuery q) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        if (!q.municipios().isEmpty()) {
            List<BytesRef> geos = new ArrayList<>();
            for (String name : q.municipios()) {
                for (int code : municipalities.resolve(name, q.ufs())) {
                    String uf = lookups.municipiosUf().get(String.format(Locale.ROOT, "%04d", code));
                    if (uf != null) {
                        long key = RegisterQuery.UF_CODES.indexOf(uf) * 10_000L + code;
                        geos.add(new BytesRef(String.format(Locale.ROOT, "%06d", key)));
                    }
                }
            }
            b.add(new TermInSetQuery("geo", geos), BooleanClause.Occur.FILTER);
        } else if (!q.ufs().isEmpty()) {
            BooleanQuery.Builder any = new BooleanQuery.Builder();
            for (String uf : q.ufs()) {
                long lo = RegisterQuery.UF_CODES.indexOf(uf) * 10_000L;
                any.add(
                        new IndexSortSortedNumericDocValuesRangeQuery(
                                "geo", lo, lo + 9_999, NumericDocValuesField.newSlowRangeQuery("geo", lo, lo + 9_999)),
                        BooleanClause.Occur.SHOULD);
            }
            b.add(any.build(), BooleanClause.Occur.FILTER);
        }
        terms(b, "cnae", q.cnaes());
        terms(b, "cnae2", q.cnaesSecundarios());
        terms(b, "nat", q.naturezas());
        terms(b, "sit", q.situacaoCadastral());
        terms(b, "porte", q.portes());
        terms(b, "ddd", q.ddds());
        flag(b, "mei", q.mei().orElse(null));
        flag(b, "simples", q.simples().orElse(null));
        flag(b, "tel", q.comTelefone().orElse(null));
        flag(b, "movel", q.comTelefoneMovel().orElse(null));
        flag(b, "email", q.comEmail().orElse(null));
        flag(b, "divida", q.divida().orElse(null));
        if (q.aberturaDe().isPresent() || q.aberturaAte().isPresent()) {
            long lo = q.aberturaDe().map(LocalDate::toEpochDay).orElse(Long.MIN_VALUE);
            long hi = q.aberturaAte().map(LocalDate::toEpochDay).orElse(Long.MAX_VALUE);
            b.add(NumericDocValuesField.newSlowRangeQuery("abertura", lo, hi), BooleanClause.Occur.FILTER);
        }
        if (q.capitalMin().isPresent() || q.capitalMax().isPresent()) {
            long lo = q.capitalMin()
                    .map(v -> v.movePointRight(2).longValueExact())
                    .orElse(0L);
            long hi = q.capitalMax()
                    .map(v -> v.movePointRight(2).longValueExact())
                    .orElse(Long.MAX_VALUE);
            b.add(NumericDocValuesField.newSlowRangeQuery("capital", lo, hi), BooleanClause.Occur.FILTER);
        }
        return b.build();
    }

    private static void terms(BooleanQuery.Builder b, String field, Set<String> values) {
        if (values.size() == 1) {
            b.add(new TermQuery(new Term(field, values.iterator().next())), BooleanClause.Occur.FILTER);
        } else if (!values.isEmpty()) {
            b.add(new TermInSetQuery(field, values.stream().map(BytesRef::new).toList()), BooleanClause.Occur.FILTER);
        }
    }

    private static void flag(BooleanQuery.Builder b, String field, Boolean value) {
        if (value != null) {
            b.add(new TermQuery(new Term(field, value ? "1" : "0")), BooleanClause.Occur.FILTER);
        }
    }

    @Override
    public void close() throws IOException {
        reader.close();
        directory.close();
    }
}
