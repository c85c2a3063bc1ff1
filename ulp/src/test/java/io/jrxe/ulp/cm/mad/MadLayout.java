package io.jrxe.ulp.cm.mad;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The fields of one MAD flyweight class, found by reflection so that an accessor added later is checked without
 * anyone listing it here: every public {@code int}, {@code long} or {@code boolean} getter with a setter of the same
 * name and type (a scalar), every {@code getX(byte[], int, int)} with a {@code putX(byte[], int, int)} (a byte
 * field: PrivateData, ARI, AdditionalInfo), and the GIDs ({@code xHi()}, {@code xLo()}, {@code x(long, long)}).
 * A setter that throws {@link UnsupportedOperationException} marks a field the message does not have (it must read
 * as 0).
 * <p>
 * Built once, it also knows which bits of the MAD the class defines ({@link #mask()}): a MAD re-encoded from the
 * values read must equal the original with every other bit cleared. The constructor fails if two fields of the
 * class share a bit, or a byte field's length is not what its class says.
 */
final class MadLayout
{
    /** A field as method handles on an {@code Object} receiver, its value widened to a {@code long}. */
    static final class Scalar
    {
        final String name;
        final MethodHandle get;
        final MethodHandle set;
        final boolean present;

        Scalar(final String name, final MethodHandle get, final MethodHandle set, final boolean present)
        {
            this.name = name;
            this.get = get;
            this.set = set;
            this.present = present;
        }
    }

    /** A variable-length byte field read and written with a length of 0..max. */
    static final class Bytes
    {
        final String name;
        final MethodHandle get;
        final MethodHandle put;
        final int max;

        Bytes(final String name, final MethodHandle get, final MethodHandle put, final int max)
        {
            this.name = name;
            this.get = get;
            this.put = put;
            this.max = max;
        }
    }

    private static final MethodType GET = MethodType.methodType(long.class, Object.class);
    private static final MethodType SET = MethodType.methodType(void.class, Object.class, long.class);
    private static final MethodType SET2 = MethodType.methodType(void.class, Object.class, long.class, long.class);
    private static final MethodType BYTES = MethodType.methodType(void.class, Object.class, byte[].class, int.class,
        int.class);

    private final String name;
    private final int attributeId;
    private final Scalar[] scalars;
    private final Bytes[] bytes;
    private final byte[] mask = new byte[MadHeader.MAD_SIZE];

    /**
     * @param flyweight an instance of the class, used to find the masks (it is left wrapped over scratch memory)
     * @param wrap      wraps the instance over a buffer at offset 0
     */
    MadLayout(final Object flyweight, final Wrapper wrap)
    {
        final Class<?> type = flyweight.getClass();
        name = type.getSimpleName();
        attributeId = flyweight instanceof CmMessage ? attributeOf((CmMessage<?>)flyweight) : -1;
        final List<Scalar> s = new ArrayList<>();
        final List<Bytes> b = new ArrayList<>();
        final UnsafeBuffer scratch = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        wrap.wrap(flyweight, scratch);
        try
        {
            find(type, flyweight, s, b);
            scalars = s.toArray(new Scalar[0]);
            bytes = b.toArray(new Bytes[0]);
            findMasks(flyweight, scratch);
        }
        catch (final Throwable ex)
        {
            throw new AssertionError(name + ": " + ex, ex);
        }
    }

    /** How to wrap a flyweight over a MAD at offset 0. */
    interface Wrapper
    {
        void wrap(Object flyweight, UnsafeBuffer buffer);
    }

    String name()
    {
        return name;
    }

    /** @return the class's AttributeID, -1 for the header */
    int attributeId()
    {
        return attributeId;
    }

    /** ClassPortInfo refuses init: its ID is its constant; the messages write theirs with init. */
    private static int attributeOf(final CmMessage<?> m)
    {
        if (m instanceof ClassPortInfo)
        {
            return ClassPortInfo.ATTRIBUTE_ID;
        }
        final UnsafeBuffer b = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        m.wrap(b, 0).init(0);
        return m.header().attributeId();
    }

    Scalar[] scalars()
    {
        return scalars;
    }

    Bytes[] bytes()
    {
        return bytes;
    }

    /** @return the bits any field of the class covers, one byte per MAD byte */
    byte[] mask()
    {
        return mask;
    }

    private static void find(final Class<?> type, final Object flyweight, final List<Scalar> scalars,
        final List<Bytes> bytes) throws ReflectiveOperationException
    {
        final MethodHandles.Lookup lookup = MethodHandles.lookup();
        final Method[] methods = type.getMethods();
        Arrays.sort(methods, (x, y) -> x.getName().compareTo(y.getName())); // a stable order, for the messages
        for (final Method getter : methods)
        {
            // not skipping bridges: ReqMessage's QP and path fields are public methods of package-private classes,
            // which reflection sees through the bridges javac writes into ReqMessage
            if (Modifier.isStatic(getter.getModifiers()))
            {
                continue;
            }
            final Class<?> t = getter.getReturnType();
            final String n = getter.getName();
            if (0 == getter.getParameterCount() && (int.class == t || long.class == t || boolean.class == t))
            {
                final Method setter = method(type, n, t);
                if (null != setter)
                {
                    scalars.add(new Scalar(n, cast(lookup.unreflect(getter), GET), cast(lookup.unreflect(setter), SET),
                        present(flyweight, setter, t)));
                }
                else if (long.class == t && n.endsWith("Hi"))
                {
                    gid(type, lookup, n.substring(0, n.length() - 2), scalars);
                }
            }
            else if (n.startsWith("get") && 3 == getter.getParameterCount() && byte[].class ==
                getter.getParameterTypes()[0] && int.class == getter.getParameterTypes()[1] &&
                int.class == getter.getParameterTypes()[2])
            {
                final String field = n.substring(3);
                final Method put = type.getMethod("put" + field, byte[].class, int.class, int.class);
                bytes.add(new Bytes(field, cast(lookup.unreflect(getter), BYTES), cast(lookup.unreflect(put), BYTES),
                    maxLength(flyweight, getter)));
            }
        }
    }

    /** A GID as two scalars, each set through the two-argument setter with the other half kept. */
    private static void gid(final Class<?> type, final MethodHandles.Lookup lookup, final String field,
        final List<Scalar> scalars) throws ReflectiveOperationException
    {
        final MethodHandle hi = cast(lookup.unreflect(type.getMethod(field + "Hi")), GET);
        final MethodHandle lo = cast(lookup.unreflect(type.getMethod(field + "Lo")), GET);
        final MethodHandle both = cast(lookup.unreflect(type.getMethod(field, long.class, long.class)), SET2);
        final MethodType half = MethodType.methodType(void.class, MethodHandle.class, MethodHandle.class,
            Object.class, long.class);
        scalars.add(new Scalar(field + "Hi", hi,
            MethodHandles.insertArguments(lookup.findStatic(MadLayout.class, "setHi", half), 0, both, lo), true));
        scalars.add(new Scalar(field + "Lo", lo,
            MethodHandles.insertArguments(lookup.findStatic(MadLayout.class, "setLo", half), 0, both, hi), true));
    }

    private static void setHi(final MethodHandle both, final MethodHandle lo, final Object m, final long v)
        throws Throwable
    {
        both.invokeExact(m, v, (long)lo.invokeExact(m));
    }

    private static void setLo(final MethodHandle both, final MethodHandle hi, final Object m, final long v)
        throws Throwable
    {
        both.invokeExact(m, (long)hi.invokeExact(m), v);
    }

    private static Method method(final Class<?> type, final String name, final Class<?> parameter)
    {
        try
        {
            final Method m = type.getMethod(name, parameter);
            return Modifier.isStatic(m.getModifiers()) ? null : m;
        }
        catch (final NoSuchMethodException ex)
        {
            return null;
        }
    }

    private static MethodHandle cast(final MethodHandle handle, final MethodType type)
    {
        return MethodHandles.explicitCastArguments(handle, type);
    }

    /** A setter that refuses any value stands for a field the message does not have. */
    private static boolean present(final Object flyweight, final Method setter, final Class<?> t)
        throws IllegalAccessException
    {
        try
        {
            setter.invoke(flyweight, boolean.class == t ? (Object)Boolean.FALSE : int.class == t ? (Object)0 :
                (Object)0L);
            return true;
        }
        catch (final InvocationTargetException ex)
        {
            if (ex.getCause() instanceof UnsupportedOperationException)
            {
                return false;
            }
            throw new AssertionError(setter + " refused 0", ex.getCause());
        }
    }

    /** The longest length the getter takes; it must refuse one more. */
    private static int maxLength(final Object flyweight, final Method getter) throws IllegalAccessException
    {
        final byte[] dst = new byte[2 * MadHeader.MAD_SIZE];
        int max = -1;
        for (int length = 0; length <= MadHeader.MAD_SIZE; length++)
        {
            try
            {
                getter.invoke(flyweight, dst, 0, length);
                max = length;
            }
            catch (final InvocationTargetException ex)
            {
                if (!(ex.getCause() instanceof IllegalArgumentException) || max < 0)
                {
                    throw new AssertionError(getter + " failed for length " + length, ex.getCause());
                }
                return max;
            }
        }
        throw new AssertionError(getter + " took a whole MAD");
    }

    /** Each field's bits alone, then all of them; no bit may belong to two fields. */
    private void findMasks(final Object flyweight, final UnsafeBuffer scratch) throws Throwable
    {
        final byte[] owner = new byte[MadHeader.MAD_SIZE * Byte.SIZE];
        final String[] owners = new String[scalars.length + bytes.length + 1];
        int field = 0;
        for (final Bytes f : bytes)
        {
            scratch.setMemory(0, MadHeader.MAD_SIZE, (byte)0);
            final byte[] ones = new byte[f.max];
            Arrays.fill(ones, (byte)0xFF);
            f.put.invokeExact(flyweight, ones, 0, f.max);
            // a put may also write a length field elsewhere: the byte field is the run of f.max 0xFF bytes
            int at = 0;
            while (at + f.max <= MadHeader.MAD_SIZE && !run(scratch, at, f.max))
            {
                at++;
            }
            if (at + f.max > MadHeader.MAD_SIZE)
            {
                throw new AssertionError(f.name + ": no run of " + f.max + " bytes after a put");
            }
            final UnsafeBuffer only = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
            only.setMemory(at, f.max, (byte)0xFF);
            owners[++field] = f.name;
            claim(only, owner, field, owners);
        }
        for (final Scalar f : scalars)
        {
            if (!f.present)
            {
                continue;
            }
            scratch.setMemory(0, MadHeader.MAD_SIZE, (byte)0);
            f.set.invokeExact(flyweight, -1L);
            owners[++field] = f.name;
            claim(scratch, owner, field, owners);
        }
    }

    private static boolean run(final UnsafeBuffer b, final int at, final int length)
    {
        for (int i = at; i < at + length; i++)
        {
            if ((byte)0xFF != b.getByte(i))
            {
                return false;
            }
        }
        return true;
    }

    private void claim(final UnsafeBuffer bits, final byte[] owner, final int field, final String[] owners)
    {
        for (int i = 0; i < MadHeader.MAD_SIZE; i++)
        {
            final int b = bits.getByte(i) & 0xFF;
            for (int bit = 0; bit < Byte.SIZE; bit++)
            {
                if (0 != (b & (0x80 >>> bit)))
                {
                    final int at = i * Byte.SIZE + bit;
                    if (0 != owner[at])
                    {
                        throw new AssertionError(owners[owner[at]] + " and " + owners[field] + " share bit " + bit +
                            " of MAD byte " + i);
                    }
                    owner[at] = (byte)field;
                }
            }
            mask[i] |= (byte)b;
        }
    }
}
