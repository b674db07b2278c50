package dev.cadastro.loader.internal;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * A byte-level reader of the dump's CSV dialect: {@code ;} between fields, every field in double quotes,
 * LF line ends, ISO-8859-1. It allocates nothing per field: a record's unquoted field bytes sit side by
 * side in one array with their bounds, and callers decode only what they keep.
 *
 * <p>The dialect as real files write it, not as RFC 4180 would: quotes inside a field are not doubled,
 * so a quote closes a quoted field only when a line end, the end of the input, or a separator followed
 * by the next field's opening quote (or by another separator or a line end) follows it; any other quote
 * is text, so {@code "BAR "DO ZE"; LANCHES"} is one field. A line feed inside a quoted field is text (the record then spans two
 * physical lines). Unquoted fields are read up to the next separator or line end (the PGFN files quote
 * nothing). NUL bytes are dropped, a CR before a line end is dropped, and empty lines are skipped.
 *
 * <p>A record longer than {@code maxRecordBytes} (an unterminated quote swallowing the file) is cut at
 * the next line end and flagged {@link #oversized()}, so one bad byte never costs more than one record.
 */
public final class CsvReader implements Closeable {
    private static final int START = 0;
    private static final int UNQUOTED = 1;
    private static final int QUOTED = 2;
    private static final int QUOTE_SEEN = 3;
    private static final int QUOTE_CR = 4;
    private static final int SKIP_LINE = 5;
    private static final int QUOTE_SEPARATOR = 6;

    private final InputStream in;
    private final byte separator;
    private final boolean quoting;
    private final int maxRecordBytes;
    private final byte[] buf;
    private int pos;
    private int lim;
    private boolean eof;

    private byte[] rec = new byte[1024];
    /** Whether the current record's field bytes are in the input buffer (fast path) or in {@code rec}. */
    private boolean inBuffer;

    private int rawFrom = -1;
    private int recLen;
    private int[] bounds = new int[2 * 64];
    private int fields;
    private byte[] raw = new byte[1024];
    private int rawLen;

    private long line;
    private long recordLine;
    private long bytesRead;
    private long records;
    private long blankLines;
    private boolean unterminated;
    private boolean oversized;

    public CsvReader(InputStream in, char separator, int maxRecordBytes) {
        this(in, separator, maxRecordBytes, true);
    }

    /**
     * A reader; with {@code quoting} false a double quote is an ordinary character (the PGFN files quote
     * nothing, and a name may start with a quote).
     */
    public CsvReader(InputStream in, char separator, int maxRecordBytes, boolean quoting) {
        this.in = in;
        this.quoting = quoting;
        this.separator = (byte) separator;
        this.maxRecordBytes = maxRecordBytes;
        this.buf = new byte[1 << 18];
    }

    public CsvReader(InputStream in) {
        this(in, ';', 1 << 20);
    }

    /** Reads the next record; false at the end of the input. */
    public boolean next() throws IOException {
        while (true) {
            int result = readRecord();
            if (result < 0) {
                return false;
            }
            if (result > 0) {
                records++;
                return true;
            }
            blankLines++;
        }
    }

    /** Keeps at least {@link #MIN_AHEAD} bytes ahead in the buffer unless the input ends first. */
    private void ensureAhead() throws IOException {
        if (lim - pos >= MIN_AHEAD || eof) {
            return;
        }
        int left = lim - pos;
        System.arraycopy(buf, pos, buf, 0, left);
        pos = 0;
        lim = left;
        while (lim < buf.length && !eof) {
            int n = in.read(buf, lim, buf.length - lim);
            if (n < 0) {
                eof = true;
            } else {
                lim += n;
                bytesRead += n;
            }
        }
    }

    private static final int MIN_AHEAD = 1 << 15;

    /**
     * The common case in one tight loop, without copying: a record of quoted fields separated by
     * {@code ";"}, with no quote, line feed or NUL inside a field, ending with LF within the buffer.
     * Anything else returns false, having consumed nothing, and the state machine reads the record.
     */
    private boolean fastRecord() {
        final byte[] b = buf;
        final int end = lim;
        int p = pos;
        int n = 0;
        while (true) {
            if (p >= end || b[p] != '"') {
                return false;
            }
            int s = ++p;
            while (p < end) {
                byte c = b[p];
                if (c == '"' || c == '\n' || c == 0) {
                    break;
                }
                p++;
            }
            if (p + 2 >= end || b[p] != '"') {
                return false;
            }
            byte next = b[p + 1];
            if (next == separator) {
                if (b[p + 2] != '"') {
                    return false;
                }
            } else if (next != '\n') {
                return false;
            }
            if (2 * n + 2 > bounds.length) {
                bounds = Arrays.copyOf(bounds, bounds.length * 2);
            }
            bounds[2 * n] = s;
            bounds[2 * n + 1] = p;
            n++;
            p += 2;
            if (next == '\n') {
                break;
            }
        }
        recordLine = line + 1;
        line++;
        fields = n;
        rawFrom = pos;
        rawLen = p - pos;
        inBuffer = true;
        unterminated = false;
        oversized = false;
        pos = p;
        return true;
    }

    /** -1 at end of input, 0 for an empty line, 1 for a record. */
    private int readRecord() throws IOException {
        ensureAhead();
        if (quoting && fastRecord()) {
            return 1;
        }
        inBuffer = false;
        rawFrom = -1;
        recLen = 0;
        rawLen = 0;
        fields = 0;
        unterminated = false;
        oversized = false;
        recordLine = line + 1;
        int state = START;
        int fieldStart = 0;
        boolean any = false;
        while (true) {
            if (pos == lim && !fill()) {
                // End of input.
                if (!any) {
                    return -1;
                }
                line++;
                if (state == QUOTED) {
                    unterminated = true;
                }
                if (state == QUOTE_SEPARATOR) {
                    endField(fieldStart, false);
                    fieldStart = recLen;
                }
                if (state != SKIP_LINE) {
                    endField(fieldStart, state == UNQUOTED);
                }
                return isBlank() ? 0 : 1;
            }
            byte b = buf[pos++];
            any = true;
            appendRaw(b);
            if (b == 0) {
                continue;
            }
            switch (state) {
                case START -> {
                    if (b == '"' && quoting) {
                        state = QUOTED;
                    } else if (b == separator) {
                        endField(fieldStart, false);
                        fieldStart = recLen;
                    } else if (b == '\n') {
                        line++;
                        endField(fieldStart, false);
                        return isBlank() ? 0 : 1;
                    } else {
                        append(b);
                        state = UNQUOTED;
                    }
                }
                case UNQUOTED -> {
                    if (b == separator) {
                        endField(fieldStart, true);
                        fieldStart = recLen;
                        state = START;
                    } else if (b == '\n') {
                        line++;
                        endField(fieldStart, true);
                        return isBlank() ? 0 : 1;
                    } else {
                        append(b);
                    }
                }
                case QUOTED -> {
                    if (b == '"') {
                        state = QUOTE_SEEN;
                    } else {
                        if (b == '\n') {
                            line++;
                        }
                        append(b);
                        // Fast path: copy the run of ordinary bytes up to the next quote, line feed or NUL.
                        int p = pos;
                        int end = Math.min(lim, pos + maxRecordBytes);
                        while (p < end) {
                            byte c = buf[p];
                            if (c == '"' || c == '\n' || c == 0) {
                                break;
                            }
                            p++;
                        }
                        if (p > pos) {
                            appendRun(pos, p - pos);
                            pos = p;
                        }
                    }
                }
                case QUOTE_SEEN -> {
                    if (b == separator) {
                        state = QUOTE_SEPARATOR;
                    } else if (b == '\n') {
                        line++;
                        endField(fieldStart, false);
                        return 1;
                    } else if (b == '\r') {
                        state = QUOTE_CR;
                    } else if (b == '"') {
                        append((byte) '"');
                    } else {
                        append((byte) '"');
                        append(b);
                        state = QUOTED;
                    }
                }
                case QUOTE_CR -> {
                    if (b == '\n') {
                        line++;
                        endField(fieldStart, false);
                        return 1;
                    }
                    append((byte) '"');
                    append((byte) '\r');
                    if (b == '"') {
                        state = QUOTE_SEEN;
                    } else {
                        append(b);
                        state = QUOTED;
                    }
                }
                case QUOTE_SEPARATOR -> {
                    // A quote and a separator close the field only when the next field starts (or the
                    // line ends) right after them: "BAR "DO ZE"; LANCHES" is one field.
                    pos--;
                    rawLen--;
                    if (b == '"' || b == separator || b == '\n' || b == '\r') {
                        endField(fieldStart, false);
                        fieldStart = recLen;
                        state = START;
                    } else {
                        append((byte) '"');
                        append(separator);
                        state = QUOTED;
                    }
                }
                case SKIP_LINE -> {
                    if (b == '\n') {
                        line++;
                        return 1;
                    }
                }
                default -> throw new IllegalStateException("state " + state);
            }
            if (recLen > maxRecordBytes && state != SKIP_LINE) {
                oversized = true;
                state = SKIP_LINE;
            }
        }
    }

    private boolean isBlank() {
        return fields == 1 && bounds[0] == bounds[1] && rawLen <= 2;
    }

    private void endField(int start, boolean unquoted) {
        int end = recLen;
        if (unquoted && end > start && rec[end - 1] == '\r') {
            end--;
        }
        if (2 * fields + 2 > bounds.length) {
            bounds = Arrays.copyOf(bounds, bounds.length * 2);
        }
        bounds[2 * fields] = start;
        bounds[2 * fields + 1] = end;
        fields++;
    }

    private void append(byte b) {
        if (recLen == rec.length) {
            rec = Arrays.copyOf(rec, rec.length * 2);
        }
        rec[recLen++] = b;
    }

    /** Appends {@code n} bytes of the input buffer at {@code from} to the record and to the raw copy. */
    private void appendRun(int from, int n) {
        if (recLen + n > rec.length) {
            rec = Arrays.copyOf(rec, Math.max(rec.length * 2, recLen + n));
        }
        System.arraycopy(buf, from, rec, recLen, n);
        recLen += n;
        int room = Math.min(n, maxRecordBytes - rawLen);
        if (room > 0) {
            if (rawLen + room > raw.length) {
                raw = Arrays.copyOf(raw, Math.min(Math.max(raw.length * 2, rawLen + room), maxRecordBytes));
            }
            System.arraycopy(buf, from, raw, rawLen, room);
            rawLen += room;
        }
    }

    private void appendRaw(byte b) {
        if (rawLen == raw.length) {
            if (rawLen >= maxRecordBytes) {
                return;
            }
            raw = Arrays.copyOf(raw, Math.min(raw.length * 2, maxRecordBytes));
        }
        raw[rawLen++] = b;
    }

    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        int n = in.read(buf, 0, buf.length);
        while (n == 0) {
            n = in.read(buf, 0, buf.length);
        }
        if (n < 0) {
            eof = true;
            return false;
        }
        pos = 0;
        lim = n;
        bytesRead += n;
        return true;
    }

    /** Number of fields of the current record. */
    public int fieldCount() {
        return fields;
    }

    /** The bytes holding the current record's fields; valid until the next {@link #next()}. */
    public byte[] bytes() {
        return inBuffer ? buf : rec;
    }

    public int start(int field) {
        return bounds[2 * field];
    }

    public int end(int field) {
        return bounds[2 * field + 1];
    }

    public int length(int field) {
        return bounds[2 * field + 1] - bounds[2 * field];
    }

    public boolean isEmpty(int field) {
        return length(field) == 0;
    }

    /** The field as text, or null when it is empty. */
    public String string(int field) {
        int len = length(field);
        return len == 0 ? null : Latin1.decode(bytes(), start(field), len);
    }

    /** True when the field holds exactly these ASCII characters. */
    public boolean is(int field, String ascii) {
        int len = length(field);
        if (len != ascii.length()) {
            return false;
        }
        int s = start(field);
        for (int i = 0; i < len; i++) {
            if (bytes()[s + i] != ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The physical line (1-based) where the current record starts. */
    public long lineNumber() {
        return recordLine;
    }

    /** Physical lines consumed so far. */
    public long linesRead() {
        return line;
    }

    /** Records returned so far (empty lines not counted). */
    public long records() {
        return records;
    }

    /** Empty lines skipped so far. */
    public long blankLines() {
        return blankLines;
    }

    /** Bytes taken from the input so far. */
    public long bytesRead() {
        return bytesRead;
    }

    /** The current record ended inside a quoted field at the end of the input. */
    public boolean unterminated() {
        return unterminated;
    }

    /** The current record exceeded the maximum record size and was cut at the next line end. */
    public boolean oversized() {
        return oversized;
    }

    /** The current record as the file wrote it (quotes included, decoded), without its line end. */
    public String rawText() {
        byte[] r = rawFrom >= 0 ? buf : raw;
        int from = rawFrom >= 0 ? rawFrom : 0;
        int n = from + rawLen;
        if (n > from && r[n - 1] == '\n') {
            n--;
        }
        if (n > from && r[n - 1] == '\r') {
            n--;
        }
        StringBuilder sb = new StringBuilder(n - from);
        for (int i = from; i < n; i++) {
            sb.append(r[i] == 0 ? '\0' : Latin1.decode(r[i]));
        }
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
