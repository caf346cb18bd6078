-- States, methods, roles and event statuses become enums. Each column is converted in place
-- (ALTER COLUMN ... TYPE ... USING), so its rows, and the indexes on it, stay: a value outside
-- the enum fails the migration instead of being lost.

-- CreateEnum
CREATE TYPE "TransactionState" AS ENUM ('REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'DENEGADO', 'CANCELADO', 'EXTORNADO', 'EXPIRADO', 'LIQUIDADO');

-- CreateEnum
CREATE TYPE "PaymentMethod" AS ENUM ('CARD', 'YAPE', 'BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO', 'QR');

-- CreateEnum
CREATE TYPE "RefundState" AS ENUM ('REGISTERED', 'IN_PROCESS', 'RESOLVED', 'REJECTED');

-- CreateEnum
CREATE TYPE "UserRole" AS ENUM ('PLATFORM_ADMIN', 'SUPPORT', 'MERCHANT_ADMIN', 'MERCHANT_VIEWER');

-- CreateEnum
CREATE TYPE "EventStatus" AS ENUM ('PENDING', 'DELIVERED', 'FAILED', 'SKIPPED');

-- AlterTable
ALTER TABLE "transactions"
ALTER COLUMN "method" TYPE "PaymentMethod" USING "method"::"PaymentMethod",
ALTER COLUMN "state" TYPE "TransactionState" USING "state"::"TransactionState";

-- AlterTable
ALTER TABLE "lifecycle_entries" ALTER COLUMN "state" TYPE "TransactionState" USING "state"::"TransactionState";

-- AlterTable
ALTER TABLE "refunds" ALTER COLUMN "state" TYPE "RefundState" USING "state"::"RefundState";

-- AlterTable
ALTER TABLE "refund_lifecycle_entries" ALTER COLUMN "state" TYPE "RefundState" USING "state"::"RefundState";

-- AlterTable
ALTER TABLE "outbox_events" ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "EventStatus" USING "status"::"EventStatus",
ALTER COLUMN "status" SET DEFAULT 'PENDING';

-- AlterTable
ALTER TABLE "console_users" ALTER COLUMN "role" TYPE "UserRole" USING "role"::"UserRole";
