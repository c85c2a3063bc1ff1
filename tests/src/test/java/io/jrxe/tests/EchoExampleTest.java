package io.jrxe.tests;

import io.jrxe.ulp.examples.EchoExample;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The README's rdma_cm example runs: a client and a server on the librdmacm-shaped Java API, on two jrxe nodes
 * whose engines, devices and CMs run on threads of their own, echo messages over an RC connection made by the CM.
 */
class EchoExampleTest
{
    @Test
    void shouldEchoEveryMessageInOrder() throws Exception
    {
        final List<String> messages = List.of("hello", "over", "rdma_cm", "x".repeat(3000));
        assertEquals(messages, EchoExample.run(messages));
    }
}
