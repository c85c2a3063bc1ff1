package io.jrxe.tools;

import io.jrxe.driver.emu.WireFaults;
import picocli.CommandLine.Option;

/**
 * Fault-injection options of the emulated wire, shared by the commands that run on emulated NICs.
 */
final class WireOptions
{
    @Option(names = "--loss", description = "probability a frame is lost (default: ${DEFAULT-VALUE})")
    double loss;

    @Option(names = "--reorder", description = "probability a frame is held back and overtaken")
    double reorder;

    @Option(names = "--duplicate", description = "probability a frame is delivered twice")
    double duplicate;

    @Option(names = "--corrupt", description = "probability one byte of a frame is flipped")
    double corrupt;

    @Option(names = "--seed", description = "seed of the fault decisions (default: ${DEFAULT-VALUE})")
    long seed = 1;

    WireFaults faults()
    {
        return new WireFaults().seed(seed).loss(loss).reorder(reorder).duplicate(duplicate).corrupt(corrupt);
    }

    boolean any()
    {
        return loss > 0 || reorder > 0 || duplicate > 0 || corrupt > 0;
    }
}
