package io.jrxe.tools;

import io.jrxe.rxe.devinfo.IbvDevinfo;
import io.jrxe.rxe.stats.RxeStat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code jrxe devinfo}: {@code ibv_devinfo} for the jrxe devices running on this host, read from the attributes
 * each running node publishes next to its counters file.
 */
@Command(name = "devinfo", mixinStandardHelpOptions = true,
    description = "Show the attributes of running jrxe devices as ibv_devinfo shows rxe's.")
final class DevinfoCommand implements Callable<Integer>
{
    @Option(names = {"-d", "--ib-dev"}, paramLabel = "NAME", description = "only this device (default: all)")
    String device;

    @Option(names = {"-v", "--verbose"}, description = "print all the attributes of the device(s)")
    boolean verbose;

    @Option(names = {"-l", "--list"}, description = "print only the device names")
    boolean list;

    @Option(names = "--dir", description = "directory of counters files (default: /dev/shm/jrxe, then the tmp dir)")
    List<Path> dirs = new ArrayList<>();

    @Override
    public Integer call()
    {
        final List<Path> where = dirs.isEmpty() ? RxeStat.defaultDirectories() : dirs;
        return list ? IbvDevinfo.list(where, System.out, System.err) :
            IbvDevinfo.print(where, device, verbose, System.out, System.err);
    }
}
