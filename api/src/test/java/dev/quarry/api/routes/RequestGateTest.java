package dev.quarry.api.routes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import org.junit.jupiter.api.Test;

class RequestGateTest {
  @Test
  void fullGateWithoutQueue_refusesWithRetryableCapacity() {
    RequestGate gate = new RequestGate(1, 0, 0);
    RequestGate.Permit held = gate.enter();
    QuarryException e = assertThrows(QuarryException.class, gate::enter);
    assertEquals(ErrorCode.CAPACITY, e.code());
    assertTrue(e.retryable());
    held.close();
  }

  @Test
  void releasedPermit_letsTheNextIn() {
    RequestGate gate = new RequestGate(1, 0, 0);
    gate.enter().close();
    gate.enter().close();
  }

  @Test
  void waiterThatTimesOut_isRefused() {
    RequestGate gate = new RequestGate(1, 1, 1);
    RequestGate.Permit held = gate.enter();
    assertEquals(ErrorCode.CAPACITY, assertThrows(QuarryException.class, gate::enter).code());
    held.close();
  }

  @Test
  void badBounds_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> new RequestGate(0, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new RequestGate(1, -1, 0));
  }
}
