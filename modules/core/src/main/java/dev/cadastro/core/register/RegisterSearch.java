package dev.cadastro.core.register;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.CnpjRoot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Port: search, count and lookup over the published register index. Implemented by the register
 * adapter (Lucene); used by the HTTP adapter and the mailing export.
 *
 * <p>Implementations are thread-safe and keep answering while a new index generation is published.
 */
public interface RegisterSearch {

    /**
     * One page of records in a deterministic order that is stable across pages of the same published
     * index, with the total. For {@link RegisterQuery#countOnly()} queries the page is empty.
     *
     * @throws dev.cadastro.core.error.InvalidParameterException when a municipality cannot be resolved
     */
    SearchResult search(RegisterQuery query);

    /** The number of matches, exact or a flagged estimate; never reads a stored record. */
    CountResult count(RegisterQuery query);

    /** The establishment with this CNPJ, when the published index has it. */
    Optional<Empresa> lookup(Cnpj cnpj);

    /**
     * {@link #lookup} of each CNPJ, in order; an implementation answers them all from one generation.
     */
    default List<Optional<Empresa>> lookupAll(List<Cnpj> cnpjs) {
        List<Optional<Empresa>> out = new ArrayList<>(cnpjs.size());
        for (Cnpj c : cnpjs) {
            out.add(lookup(c));
        }
        return out;
    }

    /**
     * {@link #lookupAll} with the reference month of the generation that answered it, read from that same
     * generation (a generation published between the two cannot mislabel the records).
     */
    default Lookups lookupAllReferenced(List<Cnpj> cnpjs) {
        return new Lookups(lookupAll(cnpjs), reference());
    }

    /** The answers of {@link #lookupAllReferenced}, and the reference month of the generation that gave them. */
    record Lookups(List<Optional<Empresa>> found, Optional<DataReference> reference) {
        public Lookups {
            found = List.copyOf(found);
            java.util.Objects.requireNonNull(reference, "reference");
        }
    }

    /**
     * The reference month of the dump the published generation was loaded from, and its publication
     * time; empty when the generation did not record one (built before it was recorded, or from a source
     * without a month).
     */
    default Optional<DataReference> reference() {
        return Optional.empty();
    }

    /**
     * The public partner structure (QSA) of the company with this root, from the same published
     * generation as the records, in the dump's order; empty when the dump lists no partner for it.
     */
    List<Partner> partners(CnpjRoot root);

    /**
     * {@link #partners} with the reference month of the generation that answered it, read from that same
     * generation (a generation published between the two cannot mislabel the answer).
     */
    default PartnersOf partnersReferenced(CnpjRoot root) {
        return new PartnersOf(partners(root), reference());
    }

    /** The answer of {@link #partnersReferenced}, and the reference month of the generation that gave it. */
    record PartnersOf(List<Partner> partners, Optional<DataReference> reference) {
        public PartnersOf {
            partners = List.copyOf(partners);
            java.util.Objects.requireNonNull(reference, "reference");
        }
    }

    /**
     * The first {@code limit} matches of the query's filters (its page and size are ignored), in the
     * order of search pages, all read from one index generation even if another is published meanwhile,
     * handed to {@code sink} one at a time without holding them; returns how many.
     *
     * @throws IOException what the sink throws, or a read failure of the index
     */
    long export(RegisterQuery query, int limit, RecordSink sink) throws IOException;

    /**
     * A page of the monthly change feed: the establishments that changed between the published
     * generation and its predecessor, filtered by the query's filters on the new record. A register that
     * holds no changes for the month asked refuses the {@code referencia} parameter.
     */
    default ChangePage changes(ChangeQuery query) {
        throw dev.cadastro.core.error.InvalidParameterException.of(
                "referencia",
                "no-changes",
                dev.cadastro.core.error.Message.REGISTER_NO_CHANGES.with(
                        query.referencia().map(Object::toString).orElse("-"), "-"));
    }

    /**
     * {@link #export} of the monthly changes: the first {@code limit} changed establishments of the
     * query's types whose new record matches its filters, in the order of its pages.
     */
    default long exportChanges(ChangeQuery query, int limit, RecordSink sink) throws IOException {
        throw dev.cadastro.core.error.InvalidParameterException.of(
                "referencia",
                "no-changes",
                dev.cadastro.core.error.Message.REGISTER_NO_CHANGES.with(
                        query.referencia().map(Object::toString).orElse("-"), "-"));
    }

    /** Receives exported records one by one. */
    @FunctionalInterface
    interface RecordSink {
        void accept(Empresa empresa) throws IOException;

        /**
         * Before the first record: the reference month of the generation the export reads, when it recorded
         * one (the export's own label, never the month of a generation published meanwhile).
         */
        default void describe(DataReference reference) throws IOException {}
    }
}
