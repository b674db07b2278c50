package dev.cadastro.loader;

import dev.cadastro.core.document.CnpjRoot;
import dev.cadastro.core.register.Partner;
import java.util.List;

/**
 * Where the loader delivers the partner structure (the Socios rows): the register's index builder in
 * production. Called from one thread, with the rows of one root that follow each other in the dump (a
 * root whose rows are split across the dump is delivered in several calls, in dump order).
 */
@FunctionalInterface
public interface PartnerSink {
    void add(CnpjRoot root, List<Partner> partners) throws Exception;
}
