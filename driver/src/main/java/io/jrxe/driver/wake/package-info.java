/**
 * Idle and wake-up of the threads of control: a thread whose agents find no work spins, yields, then parks on its
 * {@link io.jrxe.driver.wake.Wakeup}, and whatever gives it work signals that line.
 * <pre>
 *   application ──doorbell / invoke──┐
 *   wire (other device's thread) ────┼──▶ Wakeup.signal() ──unpark──▶ thread: [device agent, engine agent]
 *   NIC interrupt (MSI-X eventfd) ───┘                                  idle: ParkingIdleStrategy
 * </pre>
 * {@link io.jrxe.driver.wake.Wakeable} agents receive their thread's line from the thread layout; devices register
 * {@link io.jrxe.driver.wake.Wakeup.Arming} hooks so that their interrupts are on only while the thread sleeps (as
 * NAPI switches a queue's interrupt off while it polls).
 */
package io.jrxe.driver.wake;
