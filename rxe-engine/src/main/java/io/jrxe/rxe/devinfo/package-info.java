/**
 * Device information as {@code ibv_devinfo} shows it: {@link io.jrxe.rxe.devinfo.DeviceInfo} (what the device and
 * port queries return), {@link io.jrxe.rxe.devinfo.DeviceInfoFile} (published by a running node next to its counters
 * file, so another process can read it) and {@link io.jrxe.rxe.devinfo.IbvDevinfo} (the formatter behind
 * {@code jrxe devinfo}).
 */
package io.jrxe.rxe.devinfo;
