# The service emulator as a container image, for CI jobs that test Terraform
# modules against it (docs/guides/testing-your-modules.md).
#
#   docker build -t service-emulator .
#   docker run --rm -p 8080:8080 -v emulator-data:/data service-emulator
#
# The emulator listens on 0.0.0.0:8080 inside the container and keeps its
# data in the /data volume; override the flags after the image name, e.g.
#   docker run --rm -p 9090:9090 service-emulator --listen 0.0.0.0:9090 --api-key ci-key
# Runs as the distroless "nonroot" user (uid 65532).

ARG GO_VERSION=1.26.8

FROM golang:${GO_VERSION} AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY cmd/ cmd/
COPY internal/ internal/
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/service-emulator ./cmd/service-emulator \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/service-emulator /usr/local/bin/service-emulator
# A data directory the nonroot user owns: a new named volume copies it.
COPY --from=build --chown=65532:65532 /out/data /data
VOLUME ["/data"]
EXPOSE 8080
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/service-emulator"]
CMD ["--listen", "0.0.0.0:8080", "--data", "/data/emulator.db"]
