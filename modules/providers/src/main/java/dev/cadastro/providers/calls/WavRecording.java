package dev.cadastro.providers.calls;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * The exchange's recording format: WAV, PCM 16-bit little-endian, 8 kHz, mono, so 16,000
 * bytes a second (about 1 MB a minute) after a 44-byte header. Writes simulated recordings as audible
 * tones, streamed a second at a time, and checks that a file from a real exchange is in this format.
 */
public final class WavRecording {
    /** Samples per second. */
    public static final int SAMPLE_RATE = 8_000;
    /** Bytes per second of audio: 8,000 samples of 2 bytes. */
    public static final int BYTES_PER_SECOND = SAMPLE_RATE * 2;
    /** The canonical header: RIFF, a 16-byte fmt chunk and the data chunk's header. */
    public static final int HEADER_BYTES = 44;
    /** The longest recording written: its data size must fit the header's 32-bit size fields. */
    public static final int MAX_SECONDS = (int) ((0xFFFF_FFFFL - 36) / BYTES_PER_SECOND);

    private WavRecording() {}

    /** Where a call's recording is kept in the recording store: {@code calls/<integrationId>/<callId>.wav}. */
    public static String key(long integrationId, String callId) {
        if (!dev.cadastro.core.calls.CallRecord.validId(callId)) {
            throw new IllegalArgumentException("call id '" + callId + "' cannot name a recording");
        }
        return "calls/" + integrationId + "/" + callId + ".wav";
    }

    /** The size of a file of {@code seconds} of audio, header included. */
    public static long fileSize(int seconds) {
        return HEADER_BYTES + (long) checkSeconds(seconds) * BYTES_PER_SECOND;
    }

    /**
     * Writes {@code seconds} of tones, the same for the same {@code seed}: a short melody of pure tones
     * between 350 and 950 Hz, each held a quarter to a half second, with short fades so no step clicks.
     * Nothing is built in memory beyond one second of samples.
     */
    public static void writeTones(OutputStream out, int seconds, long seed) throws IOException {
        checkSeconds(seconds);
        out.write(header(seconds));
        SplittableRandom random = new SplittableRandom(seed);
        byte[] second = new byte[BYTES_PER_SECOND];
        ByteBuffer samples = ByteBuffer.wrap(second).order(ByteOrder.LITTLE_ENDIAN);
        double frequency = 0;
        int noteLeft = 0;
        int noteLength = 1;
        double phase = 0;
        for (int s = 0; s < seconds; s++) {
            samples.clear();
            for (int i = 0; i < SAMPLE_RATE; i++) {
                if (noteLeft == 0) {
                    frequency = 350 + 50 * random.nextInt(13);
                    noteLength = SAMPLE_RATE / 4 + random.nextInt(SAMPLE_RATE / 4);
                    noteLeft = noteLength;
                }
                int played = noteLength - noteLeft;
                double fade = Math.min(1.0, Math.min(played, noteLeft) / 80.0);
                phase += 2 * Math.PI * frequency / SAMPLE_RATE;
                if (phase > 2 * Math.PI) {
                    phase -= 2 * Math.PI;
                }
                samples.putShort((short) Math.round(Math.sin(phase) * fade * 9_000));
                noteLeft--;
            }
            out.write(second);
        }
    }

    /** The 44-byte header of a file holding {@code seconds} of audio. */
    public static byte[] header(int seconds) {
        long data = (long) checkSeconds(seconds) * BYTES_PER_SECOND;
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.put(ascii("RIFF")).putInt((int) (36 + data)).put(ascii("WAVE"));
        b.put(ascii("fmt ")).putInt(16).putShort((short) 1).putShort((short) 1);
        b.putInt(SAMPLE_RATE).putInt(BYTES_PER_SECOND).putShort((short) 2).putShort((short) 16);
        b.put(ascii("data")).putInt((int) data);
        return b.array();
    }

    /**
     * Reads a WAV file's header and says why it is not a recording in the exchange's format, or returns
     * null when it is: RIFF/WAVE, a PCM fmt chunk of one channel at 8 kHz and 16 bits, then a data
     * chunk (other chunks between them are skipped, as real files carry LIST chunks) that ends the file.
     *
     * @param size the file's size, to check the declared data size against
     */
    public static String problem(InputStream in, long size) throws IOException {
        return check(in, size).problem();
    }

    /**
     * What {@link #check} found: why the file is not a recording (null when it is), and where its data
     * chunk ends, which is the file's size when it is one: a file with bytes after its declared audio is
     * refused, so nothing but the recording is ever copied or served.
     */
    public record Check(String problem, long end) {
        public boolean ok() {
            return problem == null;
        }
    }

    /** {@link #problem}, and the length of the recording (header and declared audio) when it is one. */
    public static Check check(InputStream in, long size) throws IOException {
        String problem = read(in, size);
        return problem != null ? new Check(problem, -1) : new Check(null, size);
    }

    private static String read(InputStream in, long size) throws IOException {
        try {
            byte[] riff = in.readNBytes(12);
            if (riff.length < 12 || !tag(riff, 0, "RIFF") || !tag(riff, 8, "WAVE")) {
                return "is not a RIFF/WAVE file";
            }
            long offset = 12;
            boolean format = false;
            while (true) {
                byte[] chunk = in.readNBytes(8);
                if (chunk.length < 8) {
                    return "has no data chunk";
                }
                long length = ByteBuffer.wrap(chunk, 4, 4)
                                .order(ByteOrder.LITTLE_ENDIAN)
                                .getInt()
                        & 0xFFFF_FFFFL;
                offset += 8;
                if (tag(chunk, 0, "fmt ")) {
                    if (length < 16) {
                        return "has a fmt chunk of " + length + " bytes";
                    }
                    ByteBuffer fmt = ByteBuffer.wrap(in.readNBytes(16)).order(ByteOrder.LITTLE_ENDIAN);
                    if (fmt.capacity() < 16) {
                        throw new EOFException();
                    }
                    int encoding = fmt.getShort(0), channels = fmt.getShort(2), rate = fmt.getInt(4);
                    int bits = fmt.getShort(14);
                    if (encoding != 1 || channels != 1 || rate != SAMPLE_RATE || bits != 16) {
                        return "is encoding " + encoding + ", " + channels + " channel(s), " + rate + " Hz, " + bits
                                + " bits; the exchange's format is PCM (1), 1 channel, 8000 Hz, 16 bits";
                    }
                    skip(in, length - 16 + (length & 1));
                    format = true;
                } else if (tag(chunk, 0, "data")) {
                    if (!format) {
                        return "has its data chunk before the fmt chunk";
                    }
                    if (offset + length > size) {
                        return "declares " + length + " bytes of audio but the file ends after " + (size - offset);
                    }
                    long dataEnd = offset + length + (length & 1);
                    if (dataEnd < size) {
                        return "has " + (size - dataEnd) + " bytes after its audio data (the header declares " + length
                                + " bytes of audio)";
                    }
                    return null;
                } else {
                    skip(in, length + (length & 1));
                }
                offset += length + (length & 1);
            }
        } catch (EOFException e) {
            return "ends inside its header";
        }
    }

    private static void skip(InputStream in, long n) throws IOException {
        in.skipNBytes(n);
    }

    private static boolean tag(byte[] b, int at, String tag) {
        for (int i = 0; i < 4; i++) {
            if (b[at + i] != tag.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static int checkSeconds(int seconds) {
        if (seconds < 0 || seconds > MAX_SECONDS) {
            throw new IllegalArgumentException(
                    "recording of " + seconds + " seconds is outside 0 to " + MAX_SECONDS + " (the WAV size limit)");
        }
        return seconds;
    }
}
