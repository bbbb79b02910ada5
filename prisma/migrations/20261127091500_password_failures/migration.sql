-- CreateTable
CREATE TABLE "PasswordFailure" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "blockedUntil" TIMESTAMPTZ(3) NOT NULL,
    "lastFailureAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PasswordFailure_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "PasswordFailure_lastFailureAt_idx" ON "PasswordFailure"("lastFailureAt");
