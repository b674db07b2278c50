package dev.cadastro.register.internal;

import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReader;

/**
 * Reusable cursors over one segment's record store, for lookups, which come in any document order, and
 * for pages and exports.
 *
 * <p>Opening Lucene's binary doc values builds one packed reader per 65,536 record addresses: about
 * 1.5 microseconds on a segment of 17.5 million documents (70 M in four), half of a lookup. A cursor only
 * moves forward, so an idle one serves a document at or after its position: {@link #take} lends the idle
 * cursor closest below the document (keeping the low ones for low documents), or opens a new one when
 * every idle cursor is past it. Up to {@value #KEEP} idle cursors are kept, sorted by position, about ten
 * kilobytes each at that segment size; when full, the one furthest on is dropped. With documents drawn
 * uniformly, a new cursor is opened for about one lookup in {@value #KEEP} (a simulation of this rule
 * gives 1.6%). Safe for concurrent use: a lent cursor belongs to its borrower until {@link #give}; the
 * pool's lock (a {@link ReentrantLock}, which a waiting virtual thread does not pin to its carrier on
 * JDK 21) is held for a binary search and an array copy.
 */
final class RecordCursors {
    static final int KEEP = 64;

    private final LeafReader leaf;
    /** Idle cursors in increasing position; their positions do not change while they are idle. */
    private final BinaryDocValues[] idle = new BinaryDocValues[KEEP];

    private final ReentrantLock lock = new ReentrantLock();
    private int count;

    RecordCursors(LeafReader leaf) {
        this.leaf = leaf;
    }

    /** A cursor at or before {@code doc}, the caller's until it gives it back. */
    BinaryDocValues take(int doc) throws IOException {
        lock.lock();
        try {
            int at = floor(doc);
            if (at >= 0) {
                BinaryDocValues cursor = idle[at];
                System.arraycopy(idle, at + 1, idle, at, count - at - 1);
                idle[--count] = null;
                return cursor;
            }
        } finally {
            lock.unlock();
        }
        BinaryDocValues opened = leaf.getBinaryDocValues(Schema.RECORD);
        if (opened == null) {
            throw new IOException(leaf + " has no record store");
        }
        return opened;
    }

    /** Returns a cursor taken from here; when full, keeps whichever of it and the furthest-on idle one is lower. */
    void give(BinaryDocValues cursor) {
        int position = cursor.docID();
        lock.lock();
        try {
            if (count == KEEP) {
                if (idle[count - 1].docID() <= position) {
                    return;
                }
                idle[--count] = null;
            }
            int at = floor(position) + 1;
            System.arraycopy(idle, at, idle, at + 1, count - at);
            idle[at] = cursor;
            count++;
        } finally {
            lock.unlock();
        }
    }

    /** The index of the last idle cursor at or before {@code doc}, or -1. */
    private int floor(int doc) {
        int lo = 0;
        int hi = count - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (idle[mid].docID() <= doc) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return lo - 1;
    }

    /** Idle cursors held (for tests). */
    int idle() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }
}
