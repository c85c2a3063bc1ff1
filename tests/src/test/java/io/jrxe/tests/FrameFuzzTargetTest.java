package io.jrxe.tests;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.AfterAll;

/**
 * Coverage-guided fuzzing (Jazzer) of the frame receive path: Ethernet, ARP/ND/IP, UDP, the RoCE receive checks,
 * the responder and the completer of node B, through the real wire port, device model and virtio driver
 * ({@link FrameFuzzer}). Each input is up to four frames whose every decision (template, mutations, lengths,
 * whether the ICRC and the IP checksum are recomputed) comes from the fuzzer's data, so coverage steers the
 * mutations into the deep paths: atomics, READ responses, duplicates and sequence errors, NAKs.
 * <p>
 * Without {@code JAZZER_FUZZ=1} the target replays its corpus ({@code src/test/resources/io/jrxe/tests/
 * FrameFuzzTargetTestInputs/frame/}) as a plain JUnit test in {@code mvn verify}. To fuzz for a given time:
 * <pre>
 *   JAZZER_FUZZ=1 JAZZER_INSTRUMENT='io.jrxe.**' mvn -o test -pl tests -Dtest='FrameFuzzTargetTest' \
 *       -Djazzer.max_duration=10m
 * </pre>
 * Invariants after every input, each an {@link AssertionError} or exception when broken: the engine reports no
 * internal error (the pair's error handler throws), nothing outside B's registered buffers changed, and every
 * RoCE datagram B's stack handed up was received or dropped for exactly one counted reason.
 */
class FrameFuzzTargetTest
{
    /** Re-arm B's QPs (knocked to ERR by hostile frames) and top up its receives every this many inputs. */
    private static final int REARM_EVERY = 256;

    private static final DataChoices CHOICES = new DataChoices();
    private static FrameFuzzer fuzzer;
    private static long inputs;

    @FuzzTest(maxDuration = "10m")
    void frame(final FuzzedDataProvider data)
    {
        if (null == fuzzer)
        {
            fuzzer = new FrameFuzzer(); // one pair for the whole campaign: millions of inputs on one thread
        }
        CHOICES.data = data;
        final int frames = 1 + data.consumeInt(0, 3);
        for (int i = 0; i < frames; i++)
        {
            fuzzer.sendNext(CHOICES);
        }
        fuzzer.deliver();
        fuzzer.assertGuardsIntact();
        fuzzer.assertEveryDatagramAccounted();
        if (0 == ++inputs % REARM_EVERY)
        {
            fuzzer.rearm();
        }
    }

    @AfterAll
    static void closePair()
    {
        if (null != fuzzer)
        {
            fuzzer.close();
            fuzzer = null;
        }
    }

    /** The frame's decisions read from the fuzzer's input; an exhausted input gives zeros. */
    private static final class DataChoices implements FrameFuzzer.Choices
    {
        FuzzedDataProvider data;

        @Override
        public int nextInt(final int bound)
        {
            return data.consumeInt(0, bound - 1);
        }

        @Override
        public int nextInt()
        {
            return data.consumeInt();
        }

        @Override
        public long nextLong()
        {
            return data.consumeLong();
        }

        @Override
        public boolean nextBoolean()
        {
            return data.consumeBoolean();
        }
    }
}
