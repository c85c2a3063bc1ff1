package io.jrxe.tools;

import picocli.CommandLine.Command;

/**
 * {@code jrxe bench ...}: benchmarks of jrxe's layers on emulated NICs.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmarks on emulated NICs.",
    subcommands = {DriverBench.class, CmBench.class, RpcBenchCommand.class})
final class BenchCommand
{
}
