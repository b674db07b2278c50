package dev.cadastro.providers.calls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;
import org.junit.jupiter.api.Test;

class WavRecordingTest {

    private static byte[] tones(int seconds, long seed) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WavRecording.writeTones(out, seconds, seed);
        return out.toByteArray();
    }

    @Test
    void headerIsTheCanonical44BytesWithTheRightSizes() throws Exception {
        byte[] wav = tones(3, 7);
        assertEquals(44 + 3 * 16_000, wav.length);
        assertEquals(WavRecording.fileSize(3), wav.length);
        ByteBuffer h = ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("RIFF", new String(wav, 0, 4, StandardCharsets.US_ASCII));
        assertEquals(wav.length - 8, h.getInt(4));
        assertEquals("WAVEfmt ", new String(wav, 8, 8, StandardCharsets.US_ASCII));
        assertEquals(16, h.getInt(16));
        assertEquals(1, h.getShort(20)); // PCM
        assertEquals(1, h.getShort(22)); // mono
        assertEquals(8_000, h.getInt(24));
        assertEquals(16_000, h.getInt(28)); // bytes per second
        assertEquals(2, h.getShort(32)); // block align
        assertEquals(16, h.getShort(34)); // bits
        assertEquals("data", new String(wav, 36, 4, StandardCharsets.US_ASCII));
        assertEquals(3 * 16_000, h.getInt(40));
    }

    @Test
    void javaSoundReadsItAsPcm16Bit8KhzMonoOfTheGivenLength() throws Exception {
        byte[] wav = tones(5, 11);
        try (AudioInputStream audio = AudioSystem.getAudioInputStream(new ByteArrayInputStream(wav))) {
            AudioFormat f = audio.getFormat();
            assertEquals(AudioFormat.Encoding.PCM_SIGNED, f.getEncoding());
            assertEquals(8_000f, f.getSampleRate());
            assertEquals(16, f.getSampleSizeInBits());
            assertEquals(1, f.getChannels());
            assertTrue(!f.isBigEndian());
            assertEquals(5 * 8_000L, audio.getFrameLength());
        }
    }

    @Test
    void tonesAreAudibleAndTheSameForTheSameSeed() throws Exception {
        byte[] a = tones(2, 42);
        assertArrayEquals(a, tones(2, 42));
        ByteBuffer samples = ByteBuffer.wrap(a, 44, a.length - 44).order(ByteOrder.LITTLE_ENDIAN);
        double sum = 0;
        int n = 0;
        while (samples.remaining() >= 2) {
            double s = samples.getShort();
            sum += s * s;
            n++;
        }
        double rms = Math.sqrt(sum / n);
        assertTrue(rms > 2_000, "root mean square " + rms + " is about silence");
        assertTrue(!java.util.Arrays.equals(a, tones(2, 43)), "another seed plays other tones");
    }

    @Test
    void zeroSecondsIsAHeaderAlone() throws Exception {
        assertEquals(44, tones(0, 1).length);
    }

    @Test
    void refusesNegativeLengths() {
        assertThrows(IllegalArgumentException.class, () -> WavRecording.header(-1));
    }

    @Test
    void acceptsItsOwnFilesAndNamesWhatIsWrongWithOthers() throws Exception {
        byte[] good = tones(1, 1);
        assertNull(WavRecording.problem(new ByteArrayInputStream(good), good.length));

        byte[] stereo = good.clone();
        stereo[22] = 2;
        String p = WavRecording.problem(new ByteArrayInputStream(stereo), stereo.length);
        assertNotNull(p);
        assertTrue(p.contains("2 channel(s)"), p);

        byte[] cd = good.clone();
        ByteBuffer.wrap(cd).order(ByteOrder.LITTLE_ENDIAN).putInt(24, 44_100);
        assertTrue(WavRecording.problem(new ByteArrayInputStream(cd), cd.length).contains("44100 Hz"));

        byte[] truncated = java.util.Arrays.copyOf(good, 1_000);
        assertTrue(WavRecording.problem(new ByteArrayInputStream(truncated), truncated.length)
                .contains("file ends"));

        byte[] text = "not a wav".getBytes(StandardCharsets.US_ASCII);
        assertEquals("is not a RIFF/WAVE file", WavRecording.problem(new ByteArrayInputStream(text), text.length));
    }

    @Test
    void skipsChunksBetweenFormatAndData() throws Exception {
        byte[] good = tones(1, 1);
        ByteArrayOutputStream withList = new ByteArrayOutputStream();
        withList.write(good, 0, 36);
        withList.write("LIST".getBytes(StandardCharsets.US_ASCII));
        withList.write(new byte[] {3, 0, 0, 0, 'a', 'b', 'c', 0}); // odd length, padded
        withList.write(good, 36, good.length - 36);
        byte[] wav = withList.toByteArray();
        assertNull(WavRecording.problem(new ByteArrayInputStream(wav), wav.length));
    }

    @Test
    void keyNamesTheIntegrationAndTheCall() {
        assertEquals("calls/7/20261124-0001234.wav", WavRecording.key(7, "20261124-0001234"));
        assertThrows(IllegalArgumentException.class, () -> WavRecording.key(7, "../x"));
    }
}
