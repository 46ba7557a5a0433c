"""Placeholder replaced by the service module."""
from fastapi import FastAPI

app = FastAPI()
