"""The declarative base: naming convention for constraints, JSON that becomes JSONB on PostgreSQL."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, MetaData
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncAttrs
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

Json = JSON().with_variant(JSONB(), "postgresql")
# For nullable JSON columns: Python None is SQL NULL (not the JSON value null), so IS NULL finds it.
NullableJson = JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")


class Base(AsyncAttrs, DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {
        dict[str, Any]: Json,
        list[Any]: Json,
        datetime: DateTime(timezone=True),
        int: BigInteger,  # Discord snowflakes are 64-bit; surrogate keys say Integer explicitly
    }
