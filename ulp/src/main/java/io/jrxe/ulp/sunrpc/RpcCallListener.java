package io.jrxe.ulp.sunrpc;

/**
 * Told when an asynchronous call is done (a reply, or a failure in {@link RpcCall#status()}), on the thread
 * driving the client. Implement it once per caller, not per call: the data path allocates nothing.
 */
public interface RpcCallListener
{
    /**
     * @param call the call, done
     */
    void onDone(RpcCall call);
}
