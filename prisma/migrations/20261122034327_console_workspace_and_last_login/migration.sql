-- AlterTable
ALTER TABLE "User" ADD COLUMN     "lastLoginAt" TIMESTAMPTZ(3),
ADD COLUMN     "workspaceProject" TEXT,
ADD COLUMN     "workspaceTeamId" UUID;
