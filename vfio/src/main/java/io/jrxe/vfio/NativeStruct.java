package io.jrxe.vfio;

import com.sun.jna.Structure;

/**
 * Base of the JNA structures that mirror kernel UAPI structs: exposes the field offsets JNA computed, so tests can
 * pin every layout against the C rules.
 */
public abstract class NativeStruct extends Structure
{
    protected NativeStruct()
    {
        super();
    }

    /** Byte offset of {@code fieldName} in the native layout. */
    public final int offsetOf(final String fieldName)
    {
        return fieldOffset(fieldName);
    }
}
