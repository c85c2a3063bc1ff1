package io.jrxe.ulp.cm;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.AfterAll;

/**
 * Coverage-guided fuzzing (Jazzer) of the CM's receive path: MADs from a hostile peer into a {@link CmService}
 * through QP1, while its consumer connects, answers and destroys and virtual time runs its timers
 * ({@link CmFuzzer}, which lists the invariants checked after every step). Each input is a sequence of up to
 * {@link CmFuzzer#MAX_STEPS} steps whose every decision (which MAD, which comm ID and TID it names, how it is
 * broken, what the consumer answers, how much time passes) comes from the fuzzer's data, so coverage steers it
 * into the deep states: REQ, MRA, REP, RTU, DREQ, DREP, REJ, LAP, SIDR, duplicates, time-outs and time-wait. The
 * pure decoders have their own target, {@code MadDecodeFuzzTest}.
 * <p>
 * Without {@code JAZZER_FUZZ=1} the target replays its corpus ({@code src/test/resources/io/jrxe/ulp/cm/
 * CmReceiveFuzzTestInputs/receive/}; the scenario seeds are written by {@code CmReceiveSeedsTest}) as a plain JUnit
 * test. To fuzz for its ten minutes:
 * <pre>
 *   JAZZER_FUZZ=1 JAZZER_INSTRUMENT='io.jrxe.ulp.**' mvn -o test -pl ulp -Dtest='CmReceiveFuzzTest#receive'
 * </pre>
 */
class CmReceiveFuzzTest
{
    private static CmFuzzer fuzzer;

    @FuzzTest(maxDuration = "10m")
    void receive(final FuzzedDataProvider data)
    {
        if (null == fuzzer || !fuzzer.isClean())
        {
            if (null != fuzzer)
            {
                fuzzer.close(); // an input failed half-way: its state is no start for the next
            }
            fuzzer = new CmFuzzer(); // one pair for the campaign: building it costs more than a thousand inputs
        }
        fuzzer.run(new DataChoices(data));
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

    /** The decisions read from the fuzzer's input (names ignored); an exhausted input gives the lowest values. */
    static final class DataChoices implements FuzzChoices
    {
        private final FuzzedDataProvider data;

        DataChoices(final FuzzedDataProvider data)
        {
            this.data = data;
        }

        @Override
        public boolean more()
        {
            return data.remainingBytes() > 0;
        }

        @Override
        public int pick(final String what, final int min, final int max)
        {
            return data.consumeInt(min, max);
        }

        @Override
        public int anyInt(final String what)
        {
            return data.consumeInt();
        }

        @Override
        public long anyLong(final String what)
        {
            return data.consumeLong();
        }

        @Override
        public boolean flag(final String what)
        {
            return data.consumeBoolean();
        }
    }
}
