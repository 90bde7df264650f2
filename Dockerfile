# The image `headroom kube --image` runs as worker pods (and any other headroom command): the runnable jar on a
# Java 25 runtime. Build: docker build -t headroom . (not built in CI here: no container runtime on these machines).
FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -DskipTests install -pl cli -am

FROM eclipse-temurin:25-jre
COPY --from=build /src/cli/target/headroom.jar /opt/headroom/headroom.jar
USER 65532:65532
ENTRYPOINT ["java", "--sun-misc-unsafe-memory-access=allow", "-XX:+UseZGC", "-jar", "/opt/headroom/headroom.jar"]
