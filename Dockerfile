# Quarry in a container: the release archive on a Java runtime.
#   docker build -t quarry .
#   docker run -p 8080:8080 -v quarry-data:/data -v "$PWD/tokens.json:/etc/quarry/tokens.json:ro" quarry
# The build stage compiles with the Maven wrapper (it fetches Maven and the dependencies from
# Maven Central); the image holds only a Java runtime and the unpacked release. See docs/install.md.

FROM eclipse-temurin:21-jdk AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -DskipTests -pl dist -am package \
 && mkdir -p /opt/quarry \
 && tar xzf dist/target/quarry-*.tar.gz -C /opt/quarry --strip-components=1

FROM eclipse-temurin:21-jre
COPY --from=build /opt/quarry /opt/quarry
RUN useradd --system --home-dir /data --shell /usr/sbin/nologin quarry \
 && mkdir -p /data /etc/quarry && chown quarry /data
USER quarry
VOLUME /data
EXPOSE 8080
# JAVA_OPTS sizes the heap (docs/operations.md); 1 GB suits a start.
ENV JAVA_OPTS="-Xmx1g"
ENTRYPOINT ["/opt/quarry/bin/quarry"]
CMD ["serve", "--data", "/data", "--host", "0.0.0.0", "--port", "8080", "--tokens", "/etc/quarry/tokens.json"]
