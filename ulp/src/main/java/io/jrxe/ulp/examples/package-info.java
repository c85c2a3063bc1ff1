/**
 * Runnable examples of the rdma_cm API ({@link io.jrxe.ulp.rdmacm}), written the way a C program uses librdmacm:
 * {@link io.jrxe.ulp.examples.EchoServer} and {@link io.jrxe.ulp.examples.EchoClient} echo messages over an RC
 * connection, and {@link io.jrxe.ulp.examples.EchoExample} runs both on two emulated jrxe nodes
 * ({@code java -cp jrxe.jar io.jrxe.ulp.examples.EchoExample}). The README shows them; the tests run them.
 */
package io.jrxe.ulp.examples;
