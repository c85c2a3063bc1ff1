package io.jrxe.ulp.cm.mad;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The seed corpus of {@code MadDecodeFuzzTest}: one well-formed MAD of every kind the CM sends or receives, made
 * with the encoders (as Linux's and jrxe's CMs fill them: rdma_cm headers over IPv4 and IPv6, LIDs 0xFFFF, the
 * kernel's timeouts), plus a ClassPortInfo GetResp. Each is decoded by the target here and must match its file
 * under {@code src/test/resources/io/jrxe/ulp/cm/mad/MadDecodeFuzzTestInputs/decode/}; to write the files again:
 * {@code mvn -o test -pl ulp -Dtest=MadDecodeSeedsTest -Djrxe.fuzz.writeSeeds=true}.
 */
class MadDecodeSeedsTest
{
    private static final Path DIR = Paths.get("src/test/resources/io/jrxe/ulp/cm/mad/MadDecodeFuzzTestInputs/decode");
    private static final long TID = 0x0000_0001_2345_6789L;
    private static final long GID_A = 0x0000_FFFF_0A09_0001L;
    private static final long GID_B = 0x0000_FFFF_0A09_0002L;
    private static final long IP6_HI = 0xFD00_0009_0000_0000L;

    private final byte[] mad = new byte[MadHeader.MAD_SIZE];
    private final UnsafeBuffer out = new UnsafeBuffer(mad);
    private final Map<String, byte[]> seeds = new LinkedHashMap<>();

    private void seed(final String name, final int attributeId, final Consumer<UnsafeBuffer> make)
    {
        out.setMemory(0, MadHeader.MAD_SIZE, (byte)0);
        make.accept(out);
        assertEquals(attributeId, new MadHeader().wrap(out, 0).attributeId(), name);
        seeds.put(name, mad.clone());
    }

    private static ReqMessage req(final UnsafeBuffer b, final int transport)
    {
        final ReqMessage req = new ReqMessage();
        req.wrap(b, 0).init(TID).localCommId(0x1C2D_3E4F).serviceId(0x0000_0000_0106_1C06L)
            .localCaGuid(0x0002_C903_00A0_0001L).localQpn(0x11).responderResources(1).initiatorDepth(1)
            .remoteCmResponseTimeout(20).transportServiceType(transport).endToEndFlowControl(true)
            .startingPsn(0xABCDE).localCmResponseTimeout(20).retryCount(7).partitionKey(0xFFFF).pathMtu(3)
            .rnrRetryCount(7).maxCmRetries(15).primaryLocalLid(0xFFFF).primaryRemoteLid(0xFFFF)
            .primaryLocalGid(0, GID_A).primaryRemoteGid(0, GID_B).primaryHopLimit(64).primarySl(0)
            .primaryLocalAckTimeout(18);
        new CmaHeader().wrap(b, req.privateDataIndex()).cmaVersion(0).ipVersion(4).port(0xB5C3)
            .srcIpv4(0x0A09_0001).dstIpv4(0x0A09_0002);
        return req;
    }

    private void makeSeeds()
    {
        seed("req-rc-ipv4", CmAttributes.REQ, b -> req(b, ReqMessage.TRANSPORT_RC));
        seed("req-uc-ipv6", CmAttributes.REQ, b ->
        {
            final ReqMessage req = req(b, ReqMessage.TRANSPORT_UC).primaryLocalGid(IP6_HI, 1)
                .primaryRemoteGid(IP6_HI, 2).primaryFlowLabel(0x12345).primaryTrafficClass(0x20);
            new CmaHeader().wrap(b, req.privateDataIndex()).ipVersion(6).srcIpv6(IP6_HI, 1).dstIpv6(IP6_HI, 2);
        });
        seed("req-xrc-alternate-path", CmAttributes.REQ, b -> req(b, ReqMessage.TRANSPORT_EXTENDED)
            .extendedTransportType(ReqMessage.EXTENDED_TRANSPORT_XRC).srq(true).vendorId(0x0002C9)
            .alternateLocalLid(3).alternateRemoteLid(4).alternateLocalGid(0xFE80_0000_0000_0000L, 3)
            .alternateRemoteGid(0xFE80_0000_0000_0000L, 4).alternateFlowLabel(7).alternateSl(2)
            .alternateHopLimit(1).alternateSubnetLocal(true).alternateLocalAckTimeout(14));
        seed("mra-req", CmAttributes.MRA, b -> new MraMessage().wrap(b, 0).init(TID).localCommId(0x55)
            .remoteCommId(0x1C2D_3E4F).messageMraed(MraMessage.MESSAGE_REQ).serviceTimeout(24));
        seed("rej-invalid-service-id", CmAttributes.REJ, b -> new RejMessage().wrap(b, 0).init(TID).localCommId(0)
            .remoteCommId(0x1C2D_3E4F).messageRejected(RejMessage.MESSAGE_REQ).reason(RejReason.INVALID_SERVICE_ID));
        seed("rej-consumer-ari", CmAttributes.REJ, b ->
        {
            final RejMessage rej = new RejMessage().wrap(b, 0).init(TID).localCommId(0x55).remoteCommId(0x66)
                .messageRejected(RejMessage.MESSAGE_REP).reason(RejReason.CONSUMER_DEFINED);
            rej.putAri(new byte[]{1, 2, 3, 4, 5, 6, 7, 8}, 0, 8);
            rej.putPrivateData(new byte[]{0x2A, 0, 0, 1}, 0, 4);
        });
        seed("rep", CmAttributes.REP, b -> new RepMessage().wrap(b, 0).init(TID).localCommId(0x55)
            .remoteCommId(0x1C2D_3E4F).localQkey(0x8001_0000).localQpn(0x22).startingPsn(0x12345)
            .responderResources(1).initiatorDepth(1).targetAckDelay(15).failoverAccepted(0)
            .endToEndFlowControl(true).rnrRetryCount(7).srq(false).localCaGuid(0x0002_C903_00B0_0002L));
        seed("rtu", CmAttributes.RTU, b -> new RtuMessage().wrap(b, 0).init(TID).localCommId(0x1C2D_3E4F)
            .remoteCommId(0x55));
        seed("dreq", CmAttributes.DREQ, b -> new DreqMessage().wrap(b, 0).init(TID).localCommId(0x1C2D_3E4F)
            .remoteCommId(0x55).remoteQpn(0x22));
        seed("drep", CmAttributes.DREP, b -> new DrepMessage().wrap(b, 0).init(TID).localCommId(0x55)
            .remoteCommId(0x1C2D_3E4F));
        seed("sidr-req-ipv4", CmAttributes.SIDR_REQ, b ->
        {
            final SidrReqMessage req = new SidrReqMessage().wrap(b, 0).init(TID).requestId(0x77).partitionKey(0xFFFF)
                .serviceId(0x0000_0000_0111_4E21L);
            new CmaHeader().wrap(b, req.privateDataIndex()).ipVersion(4).port(0x9000).srcIpv4(0x0A09_0001)
                .dstIpv4(0x0A09_0002);
        });
        seed("sidr-rep-success", CmAttributes.SIDR_REP, b -> new SidrRepMessage().wrap(b, 0).init(TID).requestId(0x77)
            .status(SidrStatus.SUCCESS).qpn(0x33).qkey(0x0111_4E21).serviceId(0x0000_0000_0111_4E21L));
        seed("sidr-rep-redirect-info", CmAttributes.SIDR_REP, b ->
        {
            final SidrRepMessage rep = new SidrRepMessage().wrap(b, 0).init(TID).requestId(0x77)
                .status(SidrStatus.REDIRECT);
            rep.putAdditionalInfo(new byte[]{9, 8, 7}, 0, 3);
        });
        seed("lap", CmAttributes.LAP, b -> new LapMessage().wrap(b, 0).init(TID).localCommId(0x1C2D_3E4F)
            .remoteCommId(0x55).remoteQpn(0x22));
        seed("apr-not-supported", CmAttributes.APR, b -> new AprMessage().wrap(b, 0).init(TID).localCommId(0x55)
            .remoteCommId(0x1C2D_3E4F).apStatus(AprMessage.AP_STATUS_NOT_SUPPORTED));
        seed("get-class-port-info", CmAttributes.CLASS_PORT_INFO, b -> new MadHeader().wrap(b, 0)
            .initCm(MadHeader.METHOD_GET, CmAttributes.CLASS_PORT_INFO, TID));
        seed("class-port-info-get-resp", CmAttributes.CLASS_PORT_INFO, b ->
        {
            new MadHeader().wrap(b, 0).initCm(MadHeader.METHOD_GET_RESP, CmAttributes.CLASS_PORT_INFO, TID);
            new ClassPortInfo().wrap(b, 0).baseVersion(1).classVersion(2).capabilityMask(0).respTimeValue(20);
        });
        seed("get-resp-bad-version", CmAttributes.REQ, b -> new MadHeader().wrap(b, 0)
            .initCm(MadHeader.METHOD_GET_RESP, CmAttributes.REQ, TID).classVersion(3)
            .status(MadHeader.STATUS_BAD_VERSION));
    }

    @Test
    void shouldDecodeEverySeedAndMatchItsFile() throws IOException
    {
        makeSeeds();
        final MadDecodeFuzzTest.Target target = new MadDecodeFuzzTest.Target();
        for (final Map.Entry<String, byte[]> e : seeds.entrySet())
        {
            target.decode(e.getValue());
            final Path file = DIR.resolve("seed-" + e.getKey());
            if (Boolean.getBoolean("jrxe.fuzz.writeSeeds"))
            {
                Files.createDirectories(DIR);
                Files.write(file, e.getValue());
            }
            assertTrue(Files.exists(file), file + " missing: run with -Djrxe.fuzz.writeSeeds=true");
            assertArrayEquals(e.getValue(), Files.readAllBytes(file), file + " differs");
        }
        assertEquals(18, seeds.size());
    }
}
