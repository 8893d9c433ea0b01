import dev.quarry.engine.spi.PortableScoring;

/** A host that names the engine's SPI: on the module path it must not compile. */
public class SpiHost {
  public static void main(String[] args) {
    System.out.println(PortableScoring.class.getName());
  }
}
