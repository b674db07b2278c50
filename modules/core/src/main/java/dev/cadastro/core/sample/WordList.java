package dev.cadastro.core.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * The word lists synthetic data draws from: the dump generator's names, streets and neighbourhoods,
 * and the simulated providers' names. Each list is a UTF-8 text resource beside this class, one entry
 * per line. They live in the core because the generator ({@code data-loader}) and the simulators
 * ({@code providers}) are adapters that must not depend on each other, and both depend on the core.
 *
 * <p>Order is part of the data: a seed picks entries by position, so reordering, inserting or removing
 * an entry changes every synthetic dump and every simulated answer drawn from that list.
 */
public enum WordList {
    /** Brazilian first names (company owners, partners and their representatives in the dump). */
    FIRST_NAMES("first-names.txt"),
    /** Brazilian surnames; the simulated providers draw from the first 29 only. */
    SURNAMES("surnames.txt"),
    /** Words of a company name that say what it does ("COMERCIO", "TRANSPORTES"). */
    BUSINESS_WORDS("business-words.txt"),
    /** Words of trade names ("BOM PRECO", "SAO JORGE"). */
    FANTASY_NAMES("fantasy-names.txt"),
    /** Street names, without the street type. */
    STREET_NAMES("street-names.txt"),
    /** Neighbourhoods (bairros). */
    NEIGHBOURHOODS("neighbourhoods.txt"),
    /** E-mail domains. */
    EMAIL_DOMAINS("email-domains.txt"),
    /** Foreign partners' first names. */
    FOREIGN_FIRST_NAMES("foreign-first-names.txt"),
    /** Foreign partners' surnames. */
    FOREIGN_SURNAMES("foreign-surnames.txt"),
    /**
     * The simulated providers' first names: a list of their own, not {@link #FIRST_NAMES}, because the
     * providers' deterministic answers were drawn from it and are pinned.
     */
    PROVIDER_FIRST_NAMES("provider-first-names.txt"),
    /** The simulated providers' company-name words, likewise their own. */
    PROVIDER_COMPANY_WORDS("provider-company-words.txt");

    private final String resource;

    WordList(String resource) {
        this.resource = resource;
    }

    /** The list's entries in file order, in a new array. */
    public String[] words() {
        byte[] bytes;
        try (InputStream in = WordList.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("word list " + resource + " is missing from dev.cadastro.core");
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the word list " + resource, e);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalStateException("word list " + resource + " is not UTF-8", e);
        }
        if (!text.endsWith("\n")) {
            throw new IllegalStateException("word list " + resource + " must end with a line feed");
        }
        String[] words = text.substring(0, text.length() - 1).split("\n", -1);
        for (int i = 0; i < words.length; i++) {
            String w = words[i];
            if (w.isBlank() || !w.strip().equals(w)) {
                throw new IllegalStateException(
                        "word list " + resource + " line " + (i + 1) + " is blank or has spaces around it");
            }
        }
        return words;
    }
}
