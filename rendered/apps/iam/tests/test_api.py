# Generated from spec iam by `generate`; edits are merged on re-render.

"""The HTTP API the service always has: health, metrics and OpenAPI (the spec declares no
endpoint)."""

from fastapi.testclient import TestClient


def test_service_health(client: TestClient) -> None:
    response = client.get("/api/v1/iams/health")
    assert response.json() == {"status": "UP", "service": "iam"}


def test_actuator_health_liveness_and_readiness(client: TestClient) -> None:
    for path in (
        "/actuator/health",
        "/actuator/health/liveness",
        "/actuator/health/readiness",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.json()["status"] == "UP"


def test_metrics_count_requests_by_route(client: TestClient) -> None:
    client.get("/actuator/health")
    response = client.get("/metrics")
    assert response.status_code == 200
    assert 'route="/actuator/health"' in response.text


def test_openapi_lists_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert paths, "the OpenAPI document lists the routes"
