package io.jrxe.rxe.verbs;

import java.util.Objects;

/**
 * One side of a signature handover ({@code struct ib_sig_domain}): how data sits in memory, or how it goes on the
 * wire. Immutable.
 */
public final class SigDomain
{
    private static final SigDomain NONE = new SigDomain(SigType.NONE, null);

    private final SigType sigType;
    private final T10DifDomain dif;

    private SigDomain(final SigType sigType, final T10DifDomain dif)
    {
        this.sigType = sigType;
        this.dif = dif;
    }

    /** @return a domain without protection information ({@code IB_SIG_TYPE_NONE}). */
    public static SigDomain none()
    {
        return NONE;
    }

    /**
     * @param dif the T10-DIF parameters
     * @return a T10-DIF domain ({@code IB_SIG_TYPE_T10_DIF})
     */
    public static SigDomain t10Dif(final T10DifDomain dif)
    {
        return new SigDomain(SigType.T10_DIF, Objects.requireNonNull(dif, "dif"));
    }

    /** @return the signature type ({@code sig_type}). */
    public SigType sigType()
    {
        return sigType;
    }

    /** @return the T10-DIF parameters ({@code sig.dif}), null for {@link SigType#NONE}. */
    public T10DifDomain dif()
    {
        return dif;
    }

    /** @return whether data in this domain carries an 8-byte tuple per interval. */
    public boolean hasPi()
    {
        return SigType.T10_DIF == sigType;
    }

    /** {@inheritDoc} */
    public boolean equals(final Object o)
    {
        return o instanceof SigDomain && sigType == ((SigDomain)o).sigType && Objects.equals(dif, ((SigDomain)o).dif);
    }

    /** {@inheritDoc} */
    public int hashCode()
    {
        return Objects.hash(sigType, dif);
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return hasPi() ? dif.toString() : "NONE";
    }
}
