package io.jrxe.rxe.spi;

import io.jrxe.rxe.verbs.RxeDevice;

/**
 * Hands out a device's {@link DevicePort}, once. The verbs package installs the function that opens a port when
 * {@link RxeDevice} is initialised (the pattern of the JDK's shared-secrets access), so that no public method of an
 * API type returns engine types: only code that imports this SPI package can reach them.
 */
public final class DevicePorts
{
    /** Opens the port of a device. */
    @FunctionalInterface
    public interface Opener
    {
        /**
         * @param device the device
         * @return its port
         */
        DevicePort open(RxeDevice device);
    }

    private static volatile Opener opener;

    private DevicePorts()
    {
    }

    /**
     * Called once by {@link RxeDevice}'s class initialiser.
     *
     * @param value the opener
     * @throws IllegalStateException on a second call
     */
    public static synchronized void install(final Opener value)
    {
        if (null != opener)
        {
            throw new IllegalStateException("the device port opener is installed already");
        }
        opener = value;
    }

    /**
     * The provider side (an engine, a node) takes the device's port: once per device.
     *
     * @param device the device
     * @return its port
     * @throws IllegalStateException if the port was claimed before
     */
    public static DevicePort claim(final RxeDevice device)
    {
        return opener.open(device);
    }
}
