package io.jrxe.rxe.proto;

/** Hex strings to bytes for test vectors; spaces and '|' are ignored. */
final class Hex
{
    private Hex()
    {
    }

    static byte[] bytes(final String hex)
    {
        final String clean = hex.replaceAll("[\\s|]", "");
        final byte[] out = new byte[clean.length() / 2];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = (byte)Integer.parseInt(clean.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
