# Quarry in a container: the release archive on a Java runtime.
#   docker build -t quarry .
#   mkdir -p quarry-data
#   docker run --user "$(id -u):$(id -g)" -p 8080:8080 -v "$PWD/quarry-data:/data" \
#     -v "$PWD/tokens.json:/etc/quarry/tokens.json:ro" quarry
# The build stage compiles with the Maven wrapper (it fetches Maven and the dependencies from
# Maven Central); the image holds only a Java runtime and the unpacked release. See docs/install.md:
# run as your own uid (--user), the tokens file stays chmod 600 and yours, and the data folder too.
# Java 25, the LTS release the tests run on: on 22 and later the server also runs ingestion at the
# lowest thread priority, so that searches come first (docs/configuration.md).

FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -DskipTests -pl dist -am package \
 && mkdir -p /opt/quarry \
 && tar xzf dist/target/quarry-*.tar.gz -C /opt/quarry --strip-components=1

FROM eclipse-temurin:25-jre
COPY --from=build /opt/quarry /opt/quarry
# Without --user the server runs as this unprivileged user. Its uid and gid are fixed (10001) and
# numeric in USER, so files can be given to it (chown 10001:10001 tokens.json) and an orchestrator
# can check that it is not root. /data is its own, owner only, as a new named volume copies it.
RUN groupadd --system --gid 10001 quarry \
 && useradd --system --uid 10001 --gid 10001 --home-dir /data --shell /usr/sbin/nologin quarry \
 && mkdir -p /data /etc/quarry && chown 10001:10001 /data && chmod 700 /data
USER 10001:10001
VOLUME /data
EXPOSE 8080
# JAVA_OPTS sizes the heap (docs/operations.md); 1 GB suits a start.
ENV JAVA_OPTS="-Xmx1g"
ENTRYPOINT ["/opt/quarry/bin/quarry"]
CMD ["serve", "--data", "/data", "--host", "0.0.0.0", "--port", "8080", "--tokens", "/etc/quarry/tokens.json"]
