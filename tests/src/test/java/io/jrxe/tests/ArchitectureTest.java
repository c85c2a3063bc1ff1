package io.jrxe.tests;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.jrxe.rxe.verbs.LeakyApiFixture;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The architecture rules of the developers' guide, checked on the compiled main classes of every module:
 * <pre>
 *   modules depend downward only: vfio &lt;- driver (io.jrxe.driver, .net) &lt;- rxe-engine &lt;- ulp &lt;- tools
 *   rxe-engine:  io.jrxe.rxe.verbs (application API) --&gt; io.jrxe.rxe.spi (provider interface) &lt;-- engine, node
 * </pre>
 * An application holding verbs objects must not be able to post a completion, change a QP's state behind
 * {@code modifyQp}, or reach an engine type: no public member of a public API type mentions a provider-side type,
 * and the data-path objects expose only the methods listed here (adding one is a deliberate change to this test).
 */
class ArchitectureTest
{
    private static final String API = "io.jrxe.rxe.verbs";
    private static final String[] PROVIDER_SIDE = {
        "io.jrxe.rxe.spi..", "io.jrxe.rxe.engine..", "io.jrxe.rxe.net..", "io.jrxe.rxe.node..", "io.jrxe.driver..",
        "io.jrxe.net..", "io.jrxe.vfio.."};

    private static final String RDMA_CM_API = "io.jrxe.ulp.rdmacm";
    /** Package prefixes an rdma_cm application must not see (the IB CM and its wire formats, the engine). */
    private static final String[] RDMA_CM_HIDDEN = {"io.jrxe.ulp.cm.", "io.jrxe.rxe.spi.", "io.jrxe.rxe.engine."};
    /** The one IB CM type the rdma_cm API shows: its counters, read-only. */
    private static final Set<String> RDMA_CM_SHOWN = Set.of("io.jrxe.ulp.cm.CmCounters");

    private static final JavaClasses MAIN = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.jrxe");

    /** What an application may call on a QP: posting, reading its identity and state. */
    private static final Set<String> QUEUE_PAIR_METHODS = Set.of(
        "device", "pd", "type", "qpn", "sendCq", "recvCq", "srq", "cap", "state", "isSqDraining", "isDestroyed",
        "postSend", "postRecv", "badSendWr", "badRecvWr", "badWrIndex", "postError", "multicastLoopback", "xrcd",
        "toString");

    /** What an application may call on a CQ: polling, arming, reading; resize/modify/destroy are device verbs. */
    private static final Set<String> COMPLETION_QUEUE_METHODS = Set.of(
        "handle", "cqe", "isError", "count", "peek", "poll", "reqNotify", "reqNotifyNcomp", "ackEvents", "compVector",
        "channel", "context", "toString");

    /** The methods that may take a completion: to fill it (poll) or to read it (AH from a received message). */
    private static final Set<String> READS_COMPLETIONS = Set.of("poll", "initAhFromWc", "createAhFromWc");

    /** Engine hooks that must never be public on the device. */
    private static final Set<String> DEVICE_HOOKS = Set.of(
        "raise", "doorbell", "modifyListener", "mrTable", "qp", "portState", "netdevMtu", "attach", "detach",
        "claimPort", "activeMtu", "pollCqModeration");

    private static ArchRule apiMembersExposeNoProviderTypes()
    {
        return codeUnits().that().areDeclaredInClassesThat().resideInAPackage(API)
            .and().areDeclaredInClassesThat().arePublic()
            .and().arePublic()
            .should(mentionNoProviderType())
            .because("application code must not reach engine types through the verbs API");
    }

    @Test
    void apiMethodsAndConstructorsMentionNoProviderType()
    {
        apiMembersExposeNoProviderTypes().check(MAIN);
    }

    @Test
    void apiFieldsMentionNoProviderType()
    {
        fields().that().areDeclaredInClassesThat().resideInAPackage(API)
            .and().areDeclaredInClassesThat().arePublic()
            .and().arePublic()
            .should(haveNoProviderFieldType())
            .check(MAIN);
    }

    @Test
    void queuePairOffersOnlyPostingAndReading()
    {
        methods().that().areDeclaredIn(io.jrxe.rxe.verbs.QueuePair.class).and().arePublic()
            .should(haveNameIn(QUEUE_PAIR_METHODS))
            .because("a QP's state changes only through RxeDevice.modifyQp (and the engine through its port)")
            .check(MAIN);
    }

    @Test
    void completionQueueOffersOnlyConsumerMethods()
    {
        methods().that().areDeclaredIn(io.jrxe.rxe.verbs.CompletionQueue.class).and().arePublic()
            .should(haveNameIn(COMPLETION_QUEUE_METHODS))
            .because("only the engine produces completions")
            .check(MAIN);
    }

    @Test
    void deviceHasNoPublicEngineHooks()
    {
        methods().that().areDeclaredIn(io.jrxe.rxe.verbs.RxeDevice.class).and().arePublic()
            .should(haveNameOutside(DEVICE_HOOKS))
            .check(MAIN);
    }

    @Test
    void noApiTypeTakesACompletionToPost()
    {
        methods().that().areDeclaredInClassesThat().resideInAPackage(API)
            .and().areDeclaredInClassesThat().arePublic()
            .and().arePublic()
            .and().areNotDeclaredIn(io.jrxe.rxe.verbs.WorkCompletion.class)
            .should(notTakeParameterOf(io.jrxe.rxe.verbs.WorkCompletion.class, READS_COMPLETIONS))
            .because("a completion reaches a CQ only from the engine")
            .check(MAIN);
    }

    @Test
    void theApiDoesNotDependOnTheEngine()
    {
        noClasses().that().resideInAPackage(API)
            .should().dependOnClassesThat().resideInAnyPackage("io.jrxe.rxe.engine..", "io.jrxe.rxe.node..",
                "io.jrxe.rxe.net..")
            .check(MAIN);
        noClasses().that().resideInAPackage("io.jrxe.rxe.spi..")
            .should().dependOnClassesThat().resideInAnyPackage("io.jrxe.rxe.engine..", "io.jrxe.rxe.node..")
            .check(MAIN);
    }

    @Test
    void upperLayersUseTheApiNotTheProviderInterface()
    {
        noClasses().that().resideInAnyPackage("io.jrxe.ulp..", "io.jrxe.tools..")
            .should().dependOnClassesThat().resideInAPackage("io.jrxe.rxe.spi..")
            .check(MAIN);
    }

    @Test
    void modulesDependOnlyDownward()
    {
        noClasses().that().resideInAPackage("io.jrxe.vfio..")
            .should().dependOnClassesThat().resideInAnyPackage("io.jrxe.driver..", "io.jrxe.net..", "io.jrxe.rxe..",
                "io.jrxe.ulp..", "io.jrxe.tools..")
            .check(MAIN);
        noClasses().that().resideInAnyPackage("io.jrxe.driver..", "io.jrxe.net..")
            .should().dependOnClassesThat().resideInAnyPackage("io.jrxe.rxe..", "io.jrxe.ulp..", "io.jrxe.tools..")
            .check(MAIN);
        noClasses().that().resideInAPackage("io.jrxe.rxe..")
            .should().dependOnClassesThat().resideInAnyPackage("io.jrxe.ulp..", "io.jrxe.tools..")
            .check(MAIN);
        noClasses().that().resideInAPackage("io.jrxe.ulp..")
            .should().dependOnClassesThat().resideInAPackage("io.jrxe.tools..")
            .check(MAIN);
    }

    @Test
    void theRulesCatchALeakyApi()
    {
        final JavaClasses leaky = new ClassFileImporter().importClasses(LeakyApiFixture.class);
        final EvaluationResult result = apiMembersExposeNoProviderTypes().evaluate(leaky);
        assertTrue(result.hasViolation(), "the rule must flag a public API method returning an SPI type");
        final List<String> details = result.getFailureReport().getDetails();
        assertTrue(details.stream().anyMatch(d -> d.contains("sendRing")), details.toString());
        assertTrue(details.stream().anyMatch(d -> d.contains("<init>")), details.toString());
    }

    @Test
    void rdmaCmApiExposesNoCmOrEngineInternals()
    {
        codeUnits().that().areDeclaredInClassesThat().resideInAPackage(RDMA_CM_API)
            .and().areDeclaredInClassesThat().arePublic()
            .and().arePublic()
            .should(mentionNoneOf(RDMA_CM_HIDDEN))
            .because("an rdma_cm application must not reach the IB CM's connections or the engine (only the CM's " +
                "read-only counters are shown)")
            .check(MAIN);
        noClasses().that().resideInAPackage("io.jrxe.ulp.cm..")
            .should().dependOnClassesThat().resideInAPackage(RDMA_CM_API)
            .because("the IB CM is the layer under rdma_cm")
            .check(MAIN);
    }

    @Test
    void theRpcLayersStackInOrder()
    {
        // xdr <- sunrpc (ONC RPC, any transport) <- rpcrdma (the RDMA transport) <- nfs, nfs4 (protocols over any
        // RpcClient) <- nfsmount (NFS over RDMA for tools)
        noClasses().that().resideInAnyPackage("io.jrxe.ulp.xdr..", "io.jrxe.ulp.sunrpc..")
            .should().dependOnClassesThat().resideInAnyPackage("io.jrxe.ulp.rpcrdma..", "io.jrxe.ulp.rdmacm..",
                "io.jrxe.ulp.cm..", "io.jrxe.ulp.nfs..", "io.jrxe.ulp.nfs4..", "io.jrxe.ulp.nfsmount..")
            .because("ONC RPC and XDR know no transport and no program")
            .check(MAIN);
        noClasses().that().resideInAPackage("io.jrxe.ulp.rpcrdma..")
            .should().dependOnClassesThat().resideInAnyPackage("io.jrxe.ulp.nfs..", "io.jrxe.ulp.nfs4..",
                "io.jrxe.ulp.nfsmount..", "io.jrxe.ulp.cm..")
            .because("the transport carries any RPC program, through rdma_cm (not the IB CM under it)")
            .check(MAIN);
        noClasses().that().resideInAnyPackage("io.jrxe.ulp.nfs4..")
            .should().dependOnClassesThat().resideInAnyPackage("io.jrxe.ulp.rpcrdma..", "io.jrxe.ulp.rdmacm..")
            .because("the NFSv4.1 client runs over any RpcClient")
            .check(MAIN);
        noClasses().that().resideInAnyPackage("io.jrxe.ulp.nfs")
            .should().dependOnClassesThat().resideInAnyPackage("io.jrxe.ulp.rpcrdma..", "io.jrxe.ulp.rdmacm..")
            .because("the NFSv3 client runs over any RpcClient (MOUNT over TCP)")
            .check(MAIN);
    }

    private static ArchCondition<JavaCodeUnit> mentionNoneOf(final String[] packages)
    {
        return new ArchCondition<>("mention no type of " + String.join(", ", packages))
        {
            @Override
            public void check(final JavaCodeUnit unit, final ConditionEvents events)
            {
                final List<JavaType> types = new ArrayList<>(unit.getParameterTypes());
                types.add(unit.getReturnType());
                for (final JavaType type : types)
                {
                    for (final JavaClass raw : type.getAllInvolvedRawTypes())
                    {
                        for (final String pkg : packages)
                        {
                            if ((raw.getPackageName() + ".").startsWith(pkg) &&
                                !RDMA_CM_SHOWN.contains(raw.getName()))
                            {
                                events.add(SimpleConditionEvent.violated(unit, unit.getFullName() + " mentions " +
                                    raw.getName()));
                            }
                        }
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaCodeUnit> mentionNoProviderType()
    {
        return new ArchCondition<>("mention no type of " + String.join(", ", PROVIDER_SIDE))
        {
            @Override
            public void check(final JavaCodeUnit unit, final ConditionEvents events)
            {
                final List<JavaType> types = new ArrayList<>(unit.getParameterTypes());
                types.add(unit.getReturnType());
                for (final JavaType type : types)
                {
                    for (final JavaClass raw : type.getAllInvolvedRawTypes())
                    {
                        if (isProviderSide(raw))
                        {
                            events.add(SimpleConditionEvent.violated(unit, unit.getFullName() + " mentions " +
                                raw.getName()));
                        }
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaField> haveNoProviderFieldType()
    {
        return new ArchCondition<>("have no provider-side type")
        {
            @Override
            public void check(final JavaField field, final ConditionEvents events)
            {
                for (final JavaClass raw : field.getType().getAllInvolvedRawTypes())
                {
                    if (isProviderSide(raw))
                    {
                        events.add(SimpleConditionEvent.violated(field, field.getFullName() + " is a " +
                            raw.getName()));
                    }
                }
            }
        };
    }

    private static boolean isProviderSide(final JavaClass type)
    {
        final String pkg = type.getPackageName();
        for (final String pattern : PROVIDER_SIDE)
        {
            final String prefix = pattern.substring(0, pattern.length() - 2);
            if (pkg.equals(prefix) || pkg.startsWith(prefix + "."))
            {
                return true;
            }
        }
        return false;
    }

    private static ArchCondition<JavaCodeUnit> haveNameIn(final Set<String> allowed)
    {
        return new ArchCondition<>("be one of " + allowed)
        {
            @Override
            public void check(final JavaCodeUnit unit, final ConditionEvents events)
            {
                if (!allowed.contains(unit.getName()) && !unit.getModifiers().contains(JavaModifier.SYNTHETIC))
                {
                    events.add(SimpleConditionEvent.violated(unit, unit.getFullName() + " is not an application " +
                        "method; if it must be public, add it to the allowed list with a reason"));
                }
            }
        };
    }

    private static ArchCondition<JavaCodeUnit> haveNameOutside(final Set<String> forbidden)
    {
        return new ArchCondition<>("not be one of " + forbidden)
        {
            @Override
            public void check(final JavaCodeUnit unit, final ConditionEvents events)
            {
                if (forbidden.contains(unit.getName()))
                {
                    events.add(SimpleConditionEvent.violated(unit, unit.getFullName() + " is an engine hook"));
                }
            }
        };
    }

    private static ArchCondition<JavaCodeUnit> notTakeParameterOf(final Class<?> type, final Set<String> except)
    {
        return new ArchCondition<>("not take a " + type.getSimpleName() + " unless named one of " + except)
        {
            @Override
            public void check(final JavaCodeUnit unit, final ConditionEvents events)
            {
                final boolean takes = unit.getRawParameterTypes().stream().anyMatch(
                    c -> c.isEquivalentTo(type) || c.isArray() && c.getComponentType().isEquivalentTo(type));
                if (takes && !except.contains(unit.getName()))
                {
                    events.add(SimpleConditionEvent.violated(unit, unit.getFullName() + " takes a " +
                        type.getSimpleName()));
                }
            }
        };
    }
}
