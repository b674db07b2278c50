package dev.cadastro.core.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import org.junit.jupiter.api.Test;

class WordListTest {

    @Test
    void everyListLoadsWithDistinctTrimmedEntries() {
        for (WordList list : WordList.values()) {
            String[] words = list.words();
            assertTrue(words.length > 0, list + " is empty");
            assertEquals(words.length, new HashSet<>(Arrays.asList(words)).size(), list + " repeats an entry");
            for (String w : words) {
                assertTrue(!w.isBlank() && w.strip().equals(w), list + " has the entry [" + w + "]");
            }
        }
    }

    @Test
    void keepsFileOrderAndDecodesAccentsAsUtf8() {
        String[] first = WordList.FIRST_NAMES.words();
        assertEquals(45, first.length);
        assertEquals("MARIA", first[0]);
        assertEquals("SEBASTIÃO", first[44]);
        assertEquals("ÓTICA", WordList.BUSINESS_WORDS.words()[27]);
        assertEquals("ANA", WordList.PROVIDER_FIRST_NAMES.words()[0]);
    }

    @Test
    void handsOutANewArrayEachTime() {
        String[] a = WordList.SURNAMES.words();
        String[] b = WordList.SURNAMES.words();
        assertNotSame(a, b);
        assertArrayEquals(a, b);
    }
}
